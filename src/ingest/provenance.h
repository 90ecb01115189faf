/* The chain of custody's readers (docs/provenance.md): the copy's files
 * (copy_files.c) and the bucket listings (listing.c, over the parsers
 * listing_text.c and listing_json.c). Ingest computes nothing: which
 * object is in which state is analysis/provenance.c's. */
#ifndef SR_INGEST_PROVENANCE_H
#define SR_INGEST_PROVENANCE_H

#include <stddef.h>

#include "model/provenance.h"
#include "model/sweep.h"
#include "util/error.h"

/* Every entry below export_dir into p->copy, by path: regular files with
 * their sizes, symbolic links and other kinds as such (never followed, so
 * nothing outside the copy is ever read). */
sr_error *sr_scan_copy(const char *export_dir, sr_provenance *p);

/* Read each listing (paths as given; streamed: any size in bounded memory)
 * into p: its format, SHA-256 and counts in p->listings, the objects that
 * lie in the copy's part of the bucket in p->objects, each named by its
 * path in the copy. The part is what `prefix` (--listing-prefix, as a URL
 * gs://b/x/ or a name x/; NULL: none) says, else the prefix under which
 * the most names match files of p->copy (scanned first). A listing that
 * lies inside the copy is marked so there (it is not part of the copy).
 * Input errors name the listing and the line (JSON: and the byte offset);
 * a listing none of whose names match a file is one. */
sr_error *sr_read_listings(sr_provenance *p, const char *export_dir, const char *const *paths, size_t n,
                           const char *prefix);

/* Hash the copy's files that a listing gives a hash of, with the hashes
 * their objects are compared by: from the report's own read of the file
 * (inputs' digests, util/fileio.h) when it read it, else read once here,
 * on `threads` threads (sr_parallel_for). A file that cannot be read gets
 * its problem noted (the analysis reports it), not an error. */
sr_error *sr_hash_copy(sr_provenance *p, const char *export_dir, const sr_input_file *inputs, size_t n_inputs,
                       int threads);

#endif
