/* The shortest decimal that reads back as a double, from the C++ standard
 * library's std::to_chars (exact: Ryu in libstdc++), for the C code. */
#ifndef SR_UTIL_SHORTEST_H
#define SR_UTIL_SHORTEST_H

#ifdef __cplusplus
extern "C" {
#endif

/* For a finite v other than 0: how many significant digits its shortest
 * round-trip form has (1 to 17), and in *exponent the power of ten of the
 * first (v = d.ddd x 10^exponent). 0 when it cannot say. */
int sr_shortest_digits(double v, int *exponent);

#ifdef __cplusplus
}
#endif

#endif
