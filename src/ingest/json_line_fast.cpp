// simdjson DOM for the lm-eval samples lines: see json_line_fast.h.
#include "ingest/json_line_fast.h"

#include <cjson/cJSON.h>
#include <simdjson.h>

#include <algorithm>
#include <climits>
#include <string>
#include <memory>
#include <string_view>
#include <vector>

namespace {

// cJSON's own nesting limit, so that a line cJSON rejects is rejected here too.
constexpr size_t max_depth = CJSON_NESTING_LIMIT;

// One parser a thread, kept for its buffers, freed when the thread ends.
thread_local std::unique_ptr<simdjson::dom::parser> parser;

// From 2^53 a double no longer names one integer (2^53 + 1 reads as 2^53);
// simdjson read it exactly, so such a number keeps its decimal text in
// valuestring (cJSON_Delete frees it; cJSON's own parser never sets one on a
// number), for readers that compare integers exactly (lm-eval doc_ids).
template <typename T> cJSON *integer(T x)
{
    constexpr double exact_max = 9007199254740992.0; // 2^53
    double d = static_cast<double>(x);
    if (d < exact_max && d > -exact_max)
        return cJSON_CreateNumber(d);
    cJSON *item = cJSON_CreateString(std::to_string(x).c_str());
    if (item) {
        item->type = cJSON_Number;
        item->valuedouble = d;
        item->valueint = x > 0 ? INT_MAX : INT_MIN; // cJSON's saturation
    }
    return item;
}

cJSON *scalar(simdjson::dom::element v)
{
    switch (v.type()) {
    case simdjson::dom::element_type::STRING: {
        const char *text;
        // A reference into the parser's buffers, not a copy (see the header).
        return v.get_c_str().get(text) ? nullptr : cJSON_CreateStringReference(text);
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
        return v.get_double().get(x) ? nullptr : cJSON_CreateNumber(x);
    }
    case simdjson::dom::element_type::BOOL: {
        bool x;
        return v.get_bool().get(x) ? nullptr : cJSON_CreateBool(x);
    }
    case simdjson::dom::element_type::NULL_VALUE:
        return cJSON_CreateNull();
    case simdjson::dom::element_type::ARRAY:
        return cJSON_CreateArray();
    case simdjson::dom::element_type::OBJECT:
        return cJSON_CreateObject();
    }
    return nullptr;
}

// A top-level member: an array keeps its scalar elements.
cJSON *member(simdjson::dom::element v)
{
    simdjson::dom::array elements;
    if (v.get_array().get(elements))
        return scalar(v);
    cJSON *arr = cJSON_CreateArray();
    if (!arr)
        return nullptr;
    for (simdjson::dom::element e : elements) {
        cJSON *item = scalar(e);
        if (!item || !cJSON_AddItemToArray(arr, item)) {
            cJSON_Delete(item);
            cJSON_Delete(arr);
            return nullptr;
        }
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

// The first key given twice in one object in v (nested ones too), or
// nullptr: pairwise over a few members, by sorting their names for more.
const char *first_duplicate(simdjson::dom::element v)
{
    constexpr size_t pairwise_max = 16;
    simdjson::dom::object obj;
    simdjson::dom::array arr;
    const simdjson::dom::element_type type = v.type();
    if (type != simdjson::dom::element_type::OBJECT && type != simdjson::dom::element_type::ARRAY)
        return nullptr; // a scalar holds no keys
    if (!v.get_object().get(obj)) {
        // Plain arrays, left uninitialised: a std::string_view array is
        // zeroed on every call, which cost more than the comparisons.
        const char *key[pairwise_max];
        size_t len[pairwise_max];
        unsigned ends[pairwise_max];
        size_t n = 0;
        const char *dup = nullptr;
        for (auto it = obj.begin(); it != obj.end() && !dup && n < pairwise_max; ++it, ++n) {
            std::string_view k = it.key();
            key[n] = k.data();
            len[n] = k.size();
            ends[n] = key_ends(k);
            for (size_t i = 0; i < n && !dup; i++)
                if (len[i] == len[n] && ends[i] == ends[n] && std::string_view(key[i], len[i]) == k)
                    dup = it.key_c_str();
        }
        if (!dup && obj.size() > pairwise_max) {
            std::vector<std::string_view> names;
            for (auto it = obj.begin(); it != obj.end(); ++it)
                names.push_back(it.key());
            std::sort(names.begin(), names.end());
            auto at = std::adjacent_find(names.begin(), names.end());
            if (at != names.end())
                dup = at->data(); // simdjson's strings end in NUL
        }
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

} // namespace

extern "C" sr_fast_parse sr_json_line_fast(const char *data, size_t len, size_t avail, cJSON **out,
                                             const char **duplicate_key)
{
    *out = nullptr;
    *duplicate_key = nullptr;
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
        *duplicate_key = first_duplicate(root);
        simdjson::dom::object members;
        if (root.get_object().get(members)) {
            *out = cJSON_CreateNull();
            return *out ? SR_FAST_OK : SR_FAST_OOM;
        }
        cJSON *obj = cJSON_CreateObject();
        if (!obj)
            return SR_FAST_OOM;
        for (auto it = members.begin(); it != members.end(); ++it) {
            cJSON *item = member(it.value());
            // The key too stays in the parser's buffers (cJSON_StringIsConst).
            if (!item || !cJSON_AddItemToObjectCS(obj, it.key_c_str(), item)) {
                cJSON_Delete(item);
                cJSON_Delete(obj);
                return SR_FAST_OOM;
            }
        }
        *out = obj;
        return SR_FAST_OK;
    } catch (...) {
        // simdjson reports errors as values; only allocation can throw.
        return SR_FAST_OOM;
    }
}
