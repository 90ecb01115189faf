// simdjson DOM for the lm-eval samples lines: see json_line_fast.h.
#include "ingest/json_line_fast.h"

#include <cjson/cJSON.h>
#include <simdjson.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <string>
#include <memory>
#include <string_view>
#include <vector>

namespace {

// cJSON's own nesting limit, so that a line cJSON rejects is rejected here too.
constexpr size_t max_depth = CJSON_NESTING_LIMIT;

// One parser a thread, kept for its buffers, freed when the thread ends.
thread_local std::unique_ptr<simdjson::dom::parser> parser;

// The tree's nodes, this thread's, reused from line to line: the tree is
// the parser's, as its keys and strings already were. Built through
// cJSON's hooks, each node was an allocation and cJSON_Delete's free, 4 %
// of a report's CPU.
class node_pool {
  public:
    void reset()
    {
        used = 0;
        texts.clear();
        root = nullptr;
        // A line of huge arrays does not keep its nodes for the thread's life.
        if (blocks.size() > kept_blocks)
            blocks.resize(kept_blocks);
    }
    // A zeroed node of the given cJSON type.
    cJSON *take(int type)
    {
        if (used == blocks.size() * block)
            blocks.push_back(std::make_unique<cJSON[]>(block));
        cJSON *item = &blocks[used / block][used % block];
        used++;
        *item = cJSON{};
        item->type = type;
        return item;
    }
    // A copy of text that lives as long as the tree.
    char *keep(std::string text)
    {
        texts.push_back(std::move(text));
        return texts.back().data();
    }
    const cJSON *root = nullptr; // the tree handed out last

  private:
    static constexpr size_t block = 256, kept_blocks = 16; // 256 KiB of nodes
    std::vector<std::unique_ptr<cJSON[]>> blocks;
    size_t used = 0;
    std::deque<std::string> texts; // elements stay put as it grows
};

thread_local node_pool pool;

// As cJSON links an item into an array or object: child->prev is the last.
void append(cJSON *parent, cJSON *item)
{
    cJSON *first = parent->child;
    if (!first) {
        parent->child = item;
        item->prev = item;
        return;
    }
    cJSON *last = first->prev;
    last->next = item;
    item->prev = last;
    first->prev = item;
}

// cJSON_CreateNumber's fields, valueint saturated as it does.
cJSON *number(double d)
{
    cJSON *item = pool.take(cJSON_Number);
    item->valuedouble = d;
    item->valueint = d >= INT_MAX ? INT_MAX : d <= static_cast<double>(INT_MIN) ? INT_MIN : static_cast<int>(d);
    return item;
}

// From 2^53 a double no longer names one integer (2^53 + 1 reads as 2^53);
// simdjson read it exactly, so such a number keeps its decimal text in
// valuestring (cJSON's own parser never sets one on a number), for readers
// that compare integers exactly (lm-eval doc_ids).
template <typename T> cJSON *integer(T x)
{
    constexpr double exact_max = 9007199254740992.0; // 2^53
    double d = static_cast<double>(x);
    cJSON *item = number(d);
    if (!(d < exact_max && d > -exact_max))
        item->valuestring = pool.keep(std::to_string(x));
    return item;
}

cJSON *scalar(simdjson::dom::element v)
{
    switch (v.type()) {
    case simdjson::dom::element_type::STRING: {
        const char *text;
        if (v.get_c_str().get(text))
            return nullptr;
        // A reference into the parser's buffers, not a copy (see the header).
        cJSON *item = pool.take(cJSON_String | cJSON_IsReference);
        item->valuestring = const_cast<char *>(text);
        return item;
    }
    case simdjson::dom::element_type::INT64: {
        int64_t x;
        return v.get_int64().get(x) ? nullptr : integer(x);
    }
    case simdjson::dom::element_type::UINT64: {
        uint64_t x;
        return v.get_uint64().get(x) ? nullptr : integer(x);
    }
    case simdjson::dom::element_type::DOUBLE: {
        double x;
        return v.get_double().get(x) ? nullptr : number(x);
    }
    case simdjson::dom::element_type::BOOL: {
        bool x;
        return v.get_bool().get(x) ? nullptr : pool.take(x ? cJSON_True : cJSON_False);
    }
    case simdjson::dom::element_type::NULL_VALUE:
        return pool.take(cJSON_NULL);
    case simdjson::dom::element_type::ARRAY:
        return pool.take(cJSON_Array);
    case simdjson::dom::element_type::OBJECT:
        return pool.take(cJSON_Object);
    }
    return nullptr;
}

// A top-level member: an array keeps its scalar elements.
cJSON *member(simdjson::dom::element v)
{
    simdjson::dom::array elements;
    if (v.get_array().get(elements))
        return scalar(v);
    cJSON *arr = pool.take(cJSON_Array);
    for (simdjson::dom::element e : elements) {
        cJSON *item = scalar(e);
        if (!item)
            return nullptr;
        append(arr, item);
    }
    return arr;
}

// A key's first and last bytes: keys of one length whose ends differ
// differ, so the pairwise check compares bytes only when these agree.
unsigned key_ends(std::string_view k)
{
    return k.empty() ? 0u
                     : static_cast<unsigned>(static_cast<unsigned char>(k.front())) << 8 |
                           static_cast<unsigned char>(k.back());
}

// The first keys of one object (up to max), compared pairwise. Plain
// arrays, left uninitialised: a std::string_view array was zeroed on every
// use, which cost more than the comparisons.
class few_keys {
  public:
    static constexpr size_t max = 16;
    bool full() const { return n == max; }
    // The key, if it was met before in this object; else nullptr. Not
    // when full().
    const char *add(std::string_view k, const char *k_c_str)
    {
        const char *dup = nullptr;
        const unsigned e = key_ends(k);
        for (size_t i = 0; i < n && !dup; i++)
            if (len[i] == k.size() && ends[i] == e && std::string_view(key[i], len[i]) == k)
                dup = k_c_str;
        key[n] = k.data();
        len[n] = k.size();
        ends[n] = e;
        n++;
        return dup;
    }

  private:
    const char *key[max];
    size_t len[max];
    unsigned ends[max];
    size_t n = 0;
};

// Past few_keys::max members: a name given twice among them all, by
// sorting the names, or nullptr.
const char *sorted_duplicate(simdjson::dom::object obj)
{
    std::vector<std::string_view> names;
    for (auto it = obj.begin(); it != obj.end(); ++it)
        names.push_back(it.key());
    std::sort(names.begin(), names.end());
    auto at = std::adjacent_find(names.begin(), names.end());
    return at != names.end() ? at->data() : nullptr; // simdjson's strings end in NUL
}

// The first name given twice among an object's members: pairwise over the
// first few, then by sorting when there are more; or nullptr.
const char *object_duplicate(simdjson::dom::object obj)
{
    few_keys seen;
    const char *dup = nullptr;
    for (auto it = obj.begin(); it != obj.end() && !dup && !seen.full(); ++it)
        dup = seen.add(it.key(), it.key_c_str());
    if (!dup && obj.size() > few_keys::max)
        dup = sorted_duplicate(obj);
    return dup;
}

// The first key given twice in one object in v (nested ones too), or
// nullptr: the object's own members first, then its values in order.
const char *first_duplicate(simdjson::dom::element v)
{
    simdjson::dom::object obj;
    simdjson::dom::array arr;
    const simdjson::dom::element_type type = v.type();
    if (type != simdjson::dom::element_type::OBJECT && type != simdjson::dom::element_type::ARRAY)
        return nullptr; // a scalar holds no keys
    if (!v.get_object().get(obj)) {
        const char *dup = object_duplicate(obj);
        for (auto it = obj.begin(); it != obj.end() && !dup; ++it)
            dup = first_duplicate(it.value());
        return dup;
    }
    if (!v.get_array().get(arr))
        for (simdjson::dom::element e : arr)
            if (const char *dup = first_duplicate(e))
                return dup;
    return nullptr;
}

// The per-request arrays of a serving benchmark result, this thread's,
// reused from object to object.
class request_arrays {
  public:
    void reset()
    {
        ttfts.clear();
        output_lens.clear();
        input_lens.clear();
        errors.clear();
        itl_values.clear();
        itl_start.clear();
        view = sr_fast_requests{};
    }
    // Read one member if it is a per-request array; false when it is not one.
    bool read(std::string_view key, simdjson::dom::element v)
    {
        if (key == "ttfts")
            return numbers(v, ttfts, view.has_ttfts, "ttfts");
        if (key == "output_lens")
            return numbers(v, output_lens, view.has_output_lens, "output_lens");
        if (key == "input_lens")
            return numbers(v, input_lens, view.has_input_lens, "input_lens");
        if (key == "errors")
            return error_flags(v);
        if (key == "itls")
            return inter_token(v);
        return false;
    }
    const sr_fast_requests &finish()
    {
        view.ttfts = ttfts.data();
        view.n_ttfts = ttfts.size();
        view.output_lens = output_lens.data();
        view.n_output_lens = output_lens.size();
        view.input_lens = input_lens.data();
        view.n_input_lens = input_lens.size();
        view.errors = errors.data();
        view.n_errors = errors.size();
        view.itl_values = itl_values.data();
        view.n_itl_values = itl_values.size();
        view.itl_start = itl_start.data();
        view.n_itls = itl_start.empty() ? 0 : itl_start.size() - 1;
        return view;
    }

  private:
    void bad(const char *key)
    {
        if (!view.bad_key)
            view.bad_key = key;
    }
    bool numbers(simdjson::dom::element v, std::vector<double> &out, bool &has, const char *key)
    {
        has = true;
        simdjson::dom::array a;
        if (v.get_array().get(a)) {
            bad(key);
            return true;
        }
        for (simdjson::dom::element e : a) {
            double x;
            if (e.get_double().get(x)) {
                bad(key);
                return true;
            }
            out.push_back(x);
        }
        return true;
    }
    bool error_flags(simdjson::dom::element v)
    {
        view.has_errors = true;
        simdjson::dom::array a;
        if (v.get_array().get(a)) {
            bad("errors");
            return true;
        }
        for (simdjson::dom::element e : a) {
            std::string_view text;
            if (e.is_null()) {
                errors.push_back(0);
            } else if (!e.get_string().get(text)) {
                errors.push_back(text.empty() ? 0 : 1);
            } else {
                bad("errors");
                return true;
            }
        }
        return true;
    }
    bool inter_token(simdjson::dom::element v)
    {
        view.has_itls = true;
        simdjson::dom::array a;
        if (v.get_array().get(a)) {
            bad("itls");
            return true;
        }
        itl_start.push_back(0);
        for (simdjson::dom::element request : a) {
            simdjson::dom::array gaps;
            if (request.get_array().get(gaps)) {
                bad("itls");
                return true;
            }
            for (simdjson::dom::element e : gaps) {
                double x;
                if (e.get_double().get(x)) {
                    bad("itls");
                    return true;
                }
                itl_values.push_back(x);
            }
            itl_start.push_back(itl_values.size());
        }
        return true;
    }
    std::vector<double> ttfts, output_lens, input_lens, itl_values;
    std::vector<unsigned char> errors;
    std::vector<size_t> itl_start;
    sr_fast_requests view{};
};

thread_local request_arrays requests_read;

// Parse data[0..len) and build the shallow tree of its top-level members
// (see the header); with `requests`, top-level arrays come back empty and
// the per-request ones are read into it.
sr_fast_parse parse_shallow(const char *data, size_t len, size_t avail, cJSON **out, const char **duplicate_key,
                            request_arrays *requests)
{
    *out = nullptr;
    *duplicate_key = nullptr;
    pool.root = nullptr; // the last tree is gone from here on
    try {
        if (!parser) {
            parser = std::make_unique<simdjson::dom::parser>();
            if (parser->allocate(1 << 16, max_depth))
                return SR_FAST_OOM;
        }
        simdjson::dom::element root;
        // In place when simdjson's padding lies inside the buffer; else it copies.
        bool padded = avail >= len && avail - len >= simdjson::SIMDJSON_PADDING;
        if (parser->parse(data, len, !padded).get(root))
            return SR_FAST_REJECTED;
        pool.reset();
        if (requests)
            requests->reset();
        simdjson::dom::object members;
        if (root.get_object().get(members)) {
            *duplicate_key = first_duplicate(root);
            *out = pool.take(cJSON_NULL);
            pool.root = *out;
            return SR_FAST_OK;
        }
        // One pass over the members builds the tree and checks their keys
        // (the walk's pass of its own over them was 2 % of a report's
        // CPU); the order found is first_duplicate's: the object's own
        // duplicate, else the first one within its values.
        few_keys seen;
        const char *own_dup = nullptr, *nested_dup = nullptr;
        cJSON *obj = pool.take(cJSON_Object);
        for (auto it = members.begin(); it != members.end(); ++it) {
            const char *key = it.key_c_str();
            if (!own_dup && !seen.full())
                own_dup = seen.add(it.key(), key);
            simdjson::dom::element value = it.value();
            cJSON *item;
            // A per-request array read whole holds numbers or strings only
            // (else it is reported as bad): no keys to look through.
            bool read = false;
            if (requests && value.type() == simdjson::dom::element_type::ARRAY) {
                read = requests->read(it.key(), value);
                item = pool.take(cJSON_Array);
            } else {
                item = member(value);
            }
            if (!nested_dup && !read)
                nested_dup = first_duplicate(value);
            if (!item)
                return SR_FAST_OOM; // simdjson could not read back what it parsed
            // The key too stays in the parser's buffers (cJSON_StringIsConst).
            item->string = const_cast<char *>(key);
            item->type |= cJSON_StringIsConst;
            append(obj, item);
        }
        if (!own_dup && members.size() > few_keys::max)
            own_dup = sorted_duplicate(members);
        *duplicate_key = own_dup ? own_dup : nested_dup;
        *out = obj;
        pool.root = obj;
        return SR_FAST_OK;
    } catch (...) {
        // simdjson reports errors as values; only allocation can throw.
        return SR_FAST_OOM;
    }
}

} // namespace

extern "C" sr_fast_parse sr_json_line_fast(const char *data, size_t len, size_t avail, cJSON **out,
                                             const char **duplicate_key)
{
    return parse_shallow(data, len, avail, out, duplicate_key, nullptr);
}

extern "C" sr_fast_parse sr_json_bench_fast(const char *data, size_t len, size_t avail, cJSON **out,
                                              const char **duplicate_key, sr_fast_requests *requests)
{
    *requests = sr_fast_requests{};
    sr_fast_parse parsed = parse_shallow(data, len, avail, out, duplicate_key, &requests_read);
    if (parsed == SR_FAST_OK) {
        try {
            *requests = requests_read.finish();
        } catch (...) {
            return SR_FAST_OOM;
        }
    }
    return parsed;
}

extern "C" bool sr_json_line_fast_owns(const cJSON *tree)
{
    return tree && tree == pool.root;
}
