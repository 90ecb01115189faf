// The floor under the report's load step (bench/run.sh, bench/pairs.py
// --floor): what no report over an export can skip, done as fast as the
// project's libraries allow. Every regular file under the directories named
// on the command line is read (one reusable buffer per thread, with
// simdjson's padding), hashed with SHA-256 (nettle, as the report's
// provenance) and, when it is JSON, validated and parsed by simdjson's DOM
// parser (the report's full validation): each line of a JSON-lines file
// (*.jsonl, BFCL's *_result.json and *_score.json), the whole of any other
// *.json (several documents in a row, as `vllm bench serve --append-result`
// writes them, one after another); other files (logs) are only hashed. Nothing is kept or computed.
// Files are taken from a shared counter by one thread per core, as the
// report takes model directories. Prints the files, bytes, lines and wall
// seconds; bench/pairs.py takes its CPU time from the kernel.
//
// usage: simd-floor DIR...
#include <simdjson.h>
#include <nettle/sha2.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

enum class kind { lines, whole, hash_only };

struct input {
    std::string path;
    kind how;
};

bool ends_with(const std::string &s, const char *suffix)
{
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

kind kind_of(const std::string &name)
{
    if (ends_with(name, ".jsonl") || ends_with(name, "_result.json") || ends_with(name, "_score.json"))
        return kind::lines;
    return ends_with(name, ".json") ? kind::whole : kind::hash_only;
}

struct totals {
    std::atomic<size_t> next{0}, bytes{0}, lines{0}, bad{0};
};

// Read a whole file into buf (grown, never shrunk, padded for simdjson).
bool read_file(const std::string &path, std::vector<char> &buf, size_t *len)
{
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return false;
    }
    size_t want = static_cast<size_t>(st.st_size) + simdjson::SIMDJSON_PADDING + 1;
    if (buf.size() < want)
        buf.resize(want);
    size_t used = 0;
    ssize_t r;
    while (used < static_cast<size_t>(st.st_size) &&
           (r = read(fd, buf.data() + used, static_cast<size_t>(st.st_size) - used)) > 0)
        used += static_cast<size_t>(r);
    close(fd);
    *len = used;
    return true;
}

void work(const std::vector<input> &files, totals &t)
{
    simdjson::dom::parser parser;
    std::vector<char> buf;
    for (size_t i; (i = t.next++) < files.size();) {
        size_t len = 0;
        if (!read_file(files[i].path, buf, &len)) {
            t.bad++;
            continue;
        }
        struct sha256_ctx c;
        uint8_t digest[SHA256_DIGEST_SIZE];
        sha256_init(&c);
        sha256_update(&c, len, reinterpret_cast<const uint8_t *>(buf.data()));
        sha256_digest(&c, sizeof digest, digest);
        t.bytes += len;
        const char *p = buf.data(), *end = buf.data() + len;
        simdjson::dom::element root;
        if (files[i].how == kind::whole) { // one document, or several (bench's --append-result)
            simdjson::dom::document_stream docs;
            if (parser.parse_many(p, len, len + 1).get(docs)) {
                t.bad++;
                continue;
            }
            for (auto doc : docs) {
                t.bad += doc.error() != simdjson::SUCCESS;
                t.lines++;
            }
            continue;
        }
        if (files[i].how == kind::hash_only)
            continue;
        size_t lines = 0;
        while (p < end) {
            const char *nl = static_cast<const char *>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
            size_t n = nl ? static_cast<size_t>(nl - p) : static_cast<size_t>(end - p);
            if (n > 0) {
                t.bad += parser.parse(p, n, false).get(root) != simdjson::SUCCESS;
                lines++;
            }
            p = nl ? nl + 1 : end;
        }
        t.lines += lines;
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: simd-floor DIR...\n");
        return 2;
    }
    std::vector<input> files;
    for (int a = 1; a < argc; a++) {
        std::error_code ec;
        for (auto it = std::filesystem::recursive_directory_iterator(argv[a], ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec) && !it->is_symlink(ec))
                files.push_back({it->path().string(), kind_of(it->path().filename().string())});
        if (ec) {
            std::fprintf(stderr, "simd-floor: %s: %s\n", argv[a], ec.message().c_str());
            return 1;
        }
    }
    totals t;
    unsigned n_threads = std::thread::hardware_concurrency();
    n_threads = n_threads < 1 ? 1 : n_threads > 8 ? 8 : n_threads;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (unsigned k = 1; k < n_threads; k++)
        threads.emplace_back(work, std::cref(files), std::ref(t));
    work(files, t);
    for (auto &th : threads)
        th.join();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("simd_floor_seconds=%.3f files=%zu bytes=%zu json_values=%zu bad=%zu threads=%u\n", wall, files.size(),
                t.bytes.load(), t.lines.load(), t.bad.load(), n_threads);
    return t.bad ? 1 : 0;
}
