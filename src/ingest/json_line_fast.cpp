// simdjson DOM for the lines of big JSON-lines files and for serving
// benchmark results: see json_line_fast.h.
//
// simdjson validates the line (its stage 1 and 2); what is left is what
// simdjson does not do: list the top-level members and look for a key given
// twice in an object. Both are one walk over the document's tape, the flat
// array of 64-bit words simdjson's DOM is made of (simdjson's doc/tape.md:
// a type byte on top, and for '{' and '[' the index just past the matching
// close in the low 32 bits; strings as an offset into string_buf, where a
// 32-bit length precedes the bytes; 'l', 'u' and 'd' followed by a word
// holding the value). Walking the DOM element by element cost twice as much
// (dom::element's accessors check types and build results for every
// value). The tape's layout is checked once per thread on a known line
// (tape_understood); if a simdjson release ever lays it out differently,
// every line is handed to cJSON instead, which is slower and as correct.
#include "ingest/json_line_fast.h"

#include <cjson/cJSON.h>
#include <simdjson.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// util/alloc.h's, declared here: that header is C (_Noreturn).
extern "C" [[noreturn]] void sr_die_oom(void);

namespace {

// cJSON's own nesting limit, so that a line cJSON rejects is rejected here too.
constexpr size_t max_depth = CJSON_NESTING_LIMIT;

using tape_type = simdjson::internal::tape_type;

// One parser a thread, kept for its buffers, freed when the thread ends.
thread_local std::unique_ptr<simdjson::dom::parser> parser;
// The members handed out last (this thread's): grown, never cleared
// value by value (value-initialising each member with `rep stos` was a
// third of the walk's time).
class member_list {
  public:
    void clear() { n = 0; }
    // The next member, its fields left as they were: the caller sets them all.
    sr_jmember &next()
    {
        if (n == cap) {
            size_t grown = cap ? 2 * cap : 32;
            std::unique_ptr<sr_jmember[]> bigger(new sr_jmember[grown]); // default-initialised: not zeroed
            std::copy(items.get(), items.get() + n, bigger.get());
            items = std::move(bigger);
            cap = grown;
        }
        return items[n++];
    }
    size_t size() const { return n; }
    const sr_jmember *data() const { return items.get(); }
    const sr_jmember &operator[](size_t i) const { return items[i]; }

  private:
    std::unique_ptr<sr_jmember[]> items;
    size_t n = 0, cap = 0;
};
thread_local member_list members;
// -1: not checked yet on this thread; 0: the tape is not as expected; 1: it is.
thread_local int tape_state = -1;

// ---- the tape -------------------------------------------------------------

class tape_walk {
  public:
    tape_walk(const simdjson::dom::document &doc) : tape(doc.tape.get()), strings(doc.string_buf.get()) {}

    tape_type type(size_t i) const { return static_cast<tape_type>(tape[i] >> 56); }
    uint64_t payload(size_t i) const { return tape[i] & simdjson::internal::JSON_VALUE_MASK; }
    static bool container(tape_type t) { return t == tape_type::START_OBJECT || t == tape_type::START_ARRAY; }
    // Just past a container at i (its matching close included).
    size_t end_of(size_t i) const { return static_cast<uint32_t>(tape[i]); }
    // Just past a scalar of type t at i.
    static size_t after_scalar(size_t i, tape_type t)
    {
        return i + (t == tape_type::INT64 || t == tape_type::UINT64 || t == tape_type::DOUBLE ? 2 : 1);
    }
    // The string at i (a key or a value): NUL-terminated bytes and length.
    const char *string(size_t i, size_t *len) const
    {
        const uint8_t *at = strings + payload(i);
        uint32_t n;
        std::memcpy(&n, at, sizeof n);
        *len = n;
        return reinterpret_cast<const char *>(at + sizeof n);
    }
    // The value at i into v (the fields of its type).
    void value(size_t i, sr_jvalue &v) const;
    // Walk the container at i for a key given twice in one object (at any
    // depth): *maybe set when there may be one. Returns just past it.
    size_t check_keys(size_t i, bool *maybe) const;

  private:
    const uint64_t *tape;
    const uint8_t *strings;
};

// One object's keys, for a key given twice: up to `few` compared exactly
// (an object with more always says maybe, and the slow rule looks). A
// 64-bit filter on the length and three bytes means that most keys meet
// no comparison at all.
class key_set {
  public:
    // True when k may repeat a key added before.
    bool add(const char *k, size_t l)
    {
        if (n == few)
            return true;
        auto byte = [k](size_t at) { return static_cast<unsigned>(static_cast<unsigned char>(k[at])); };
        unsigned h = l ? static_cast<unsigned>(l * 31u + byte(0) * 7u + byte(l - 1) * 3u + byte(l / 2)) & 63u : 0u;
        uint64_t bit = uint64_t{1} << h;
        bool repeat = false;
        if (seen & bit)
            for (size_t a = 0; a < n && !repeat; a++)
                repeat = len[a] == l && std::memcmp(key[a], k, l) == 0;
        seen |= bit;
        key[n] = k;
        len[n++] = l;
        return repeat;
    }

  private:
    static constexpr size_t few = 16;
    const char *key[few];
    size_t len[few];
    size_t n = 0;
    uint64_t seen = 0;
};

void tape_walk::value(size_t i, sr_jvalue &v) const
{
    // Only the fields of the value's type: setting all ten for every
    // member was a tenth of the walk.
    uint64_t next = tape[i + 1];
    v.node = nullptr;
    v.at = i;
    switch (type(i)) {
    case tape_type::STRING:
        v.type = SR_J_STRING;
        v.string = string(i, &v.length);
        break;
    case tape_type::INT64: {
        int64_t x;
        std::memcpy(&x, &next, sizeof x);
        v.type = SR_J_NUMBER;
        v.number = static_cast<double>(x);
        v.exact = true;
        v.negative = x < 0;
        v.magnitude = x < 0 ? static_cast<uint64_t>(-(x + 1)) + 1 : static_cast<uint64_t>(x);
        break;
    }
    case tape_type::UINT64:
        v.type = SR_J_NUMBER;
        v.number = static_cast<double>(next);
        v.exact = true;
        v.negative = false;
        v.magnitude = next;
        break;
    case tape_type::DOUBLE:
        v.type = SR_J_NUMBER;
        std::memcpy(&v.number, &next, sizeof v.number);
        v.exact = v.negative = false;
        v.magnitude = 0;
        break;
    case tape_type::TRUE_VALUE: v.type = SR_J_TRUE; break;
    case tape_type::FALSE_VALUE: v.type = SR_J_FALSE; break;
    case tape_type::START_OBJECT: v.type = SR_J_OBJECT; break;
    case tape_type::START_ARRAY: {
        v.type = SR_J_ARRAY;
        size_t end = end_of(i) - 1; // the ']'
        size_t count = (payload(i) >> 32) & simdjson::internal::JSON_COUNT_MASK;
        if (count == simdjson::internal::JSON_COUNT_MASK) { // saturated: count them
            count = 0;
            for (size_t j = i + 1; j < end; count++)
                j = container(type(j)) ? end_of(j) : after_scalar(j, type(j));
        }
        v.elements = count;
        v.first = SR_J_NULL;
        v.first_string = nullptr;
        if (i + 1 < end) {
            sr_jvalue first;
            value(i + 1, first);
            v.first = first.type;
            v.first_string = first.type == SR_J_STRING ? first.string : nullptr;
        }
        break;
    }
    default: v.type = SR_J_NULL; break;
    }
}

size_t tape_walk::check_keys(size_t i, bool *maybe) const
{
    size_t end = end_of(i) - 1; // the closing '}' or ']'
    bool object = type(i) == tape_type::START_OBJECT;
    key_set keys;
    for (size_t j = i + 1; j < end;) {
        if (object) {
            size_t l;
            const char *k = string(j, &l);
            if (keys.add(k, l))
                *maybe = true;
            j++; // to the value
        }
        tape_type t = type(j);
        j = container(t) ? check_keys(j, maybe) : after_scalar(j, t);
    }
    return end + 1;
}

// ---- naming the duplicate: cJSON's rule (json_keys.c), on the DOM ----------

// An object's own repeated key: among up to 16 members the first key (in
// order) that a later one repeats; among more, the smallest repeated name.
const char *object_duplicate(simdjson::dom::object obj)
{
    std::vector<std::pair<std::string_view, const char *>> names;
    for (auto it = obj.begin(); it != obj.end(); ++it)
        names.emplace_back(it.key(), it.key_c_str());
    if (names.size() <= 16) {
        for (size_t a = 0; a < names.size(); a++)
            for (size_t b = a + 1; b < names.size(); b++)
                if (names[a].first == names[b].first)
                    return names[a].second;
        return nullptr;
    }
    std::sort(names.begin(), names.end());
    for (size_t i = 1; i < names.size(); i++)
        if (names[i - 1].first == names[i].first)
            return names[i].second;
    return nullptr;
}

// The first object in document order with a repeated key of its own, and
// that key; else nullptr.
const char *first_duplicate(simdjson::dom::element v)
{
    simdjson::dom::object obj;
    simdjson::dom::array arr;
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

// ---- the line -------------------------------------------------------------

// The top-level members of the document just parsed into `members`, and
// whether some object repeats a key.
bool list_members(const simdjson::dom::document &doc, bool *maybe_duplicate)
{
    tape_walk t(doc);
    members.clear();
    *maybe_duplicate = false;
    if (!tape_walk::container(t.type(1)))
        return false;
    if (t.type(1) != tape_type::START_OBJECT) {
        t.check_keys(1, maybe_duplicate);
        return false;
    }
    key_set keys;
    size_t end = t.end_of(1) - 1;
    for (size_t j = 2; j < end;) {
        sr_jmember &m = members.next();
        m.key = t.string(j, &m.key_length);
        if (keys.add(m.key, m.key_length))
            *maybe_duplicate = true;
        t.value(j + 1, m.value);
        tape_type type = t.type(j + 1);
        j = tape_walk::container(type) ? t.check_keys(j + 1, maybe_duplicate) : tape_walk::after_scalar(j + 1, type);
    }
    return true;
}

bool same(const sr_jvalue &v, sr_jtype type, double number = 0, const char *text = nullptr)
{
    return v.type == type && (type != SR_J_NUMBER || v.number == number) &&
           (!text || (v.string && std::strcmp(v.string, text) == 0));
}

// The tape as this file reads it, on a line of every kind of value.
bool tape_understood(simdjson::dom::parser &p)
{
    static const char text[] = R"({"a": [1, "x"], "bb": -2, "c": 18446744073709551615, "d": 1.5, "e": "s\u00e9",)"
                               R"( "f": true, "g": false, "h": null, "i": {"j": [{}], "j": 2}, "k": []})";
    simdjson::dom::element root;
    if (p.parse(text, sizeof text - 1, true).get(root))
        return false;
    bool maybe = false;
    if (!list_members(p.doc, &maybe) || !maybe || members.size() != 10)
        return false;
    static const char *const keys[] = {"a", "bb", "c", "d", "e", "f", "g", "h", "i", "k"};
    for (size_t i = 0; i < 10; i++)
        if (members[i].key_length != std::strlen(keys[i]) || std::strcmp(members[i].key, keys[i]) != 0)
            return false;
    const sr_jvalue *v[10];
    for (size_t i = 0; i < 10; i++)
        v[i] = &members[i].value;
    return same(*v[0], SR_J_ARRAY) && v[0]->elements == 2 && v[0]->first == SR_J_NUMBER &&
           same(*v[1], SR_J_NUMBER, -2) && v[1]->exact && v[1]->negative && v[1]->magnitude == 2 &&
           same(*v[2], SR_J_NUMBER, 18446744073709551615.0) && v[2]->magnitude == UINT64_MAX &&
           same(*v[3], SR_J_NUMBER, 1.5) && !v[3]->exact && same(*v[4], SR_J_STRING, 0, "s\xc3\xa9") &&
           v[4]->length == 3 && same(*v[5], SR_J_TRUE) && same(*v[6], SR_J_FALSE) && same(*v[7], SR_J_NULL) &&
           same(*v[8], SR_J_OBJECT) && same(*v[9], SR_J_ARRAY) && v[9]->elements == 0 &&
           std::strcmp(first_duplicate(root), "j") == 0;
}

// ---- serving benchmark results: a shallow cJSON tree -----------------------

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
        error_texts.clear();
        error_lengths.clear();
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
        view.error_texts = error_texts.data();
        view.error_lengths = error_lengths.data();
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
                error_texts.push_back(nullptr);
                error_lengths.push_back(0);
            } else if (!e.get_string().get(text)) {
                errors.push_back(text.empty() ? 0 : 1);
                error_texts.push_back(text.empty() ? nullptr : text.data());
                error_lengths.push_back(text.size());
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
    std::vector<const char *> error_texts; // into the parser's strings, valid until its next parse
    std::vector<size_t> error_lengths;
    std::vector<size_t> itl_start;
    sr_fast_requests view{};
};

thread_local request_arrays requests_read;

// Parse data[0..len) and build the shallow tree of a bench result's
// top-level members (see the header): top-level arrays come back empty and
// the per-request ones are read into `requests`. A repeated key is named by
// the lines' rule (first_duplicate), never looked for in a per-request
// array read whole (numbers or strings only, else reported as bad).
sr_fast_parse parse_bench(const char *data, size_t len, size_t avail, cJSON **out, const char **duplicate_key,
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
        requests->reset();
        simdjson::dom::object obj_members;
        if (root.get_object().get(obj_members)) {
            *duplicate_key = first_duplicate(root);
            *out = pool.take(cJSON_NULL);
            pool.root = *out;
            return SR_FAST_OK;
        }
        // The object's own repeated key first, then the first one within
        // its values in order (first_duplicate's order).
        const char *own_dup = object_duplicate(obj_members), *nested_dup = nullptr;
        cJSON *obj = pool.take(cJSON_Object);
        for (auto it = obj_members.begin(); it != obj_members.end(); ++it) {
            simdjson::dom::element value = it.value();
            cJSON *item;
            bool read = false;
            if (value.type() == simdjson::dom::element_type::ARRAY) {
                read = requests->read(it.key(), value);
                item = pool.take(cJSON_Array);
            } else {
                item = member(value);
            }
            if (!own_dup && !nested_dup && !read)
                nested_dup = first_duplicate(value);
            if (!item)
                return SR_FAST_OOM; // simdjson could not read back what it parsed
            // The key too stays in the parser's buffers (cJSON_StringIsConst).
            item->string = const_cast<char *>(it.key_c_str());
            item->type |= cJSON_StringIsConst;
            append(obj, item);
        }
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

extern "C" sr_fast_parse sr_json_line_fast(const char *data, size_t len, size_t avail, bool *is_object,
                                             const sr_jmember **out, size_t *n, const char **duplicate_key)
{
    *is_object = false;
    *out = nullptr;
    *n = 0;
    *duplicate_key = nullptr;
    try {
        if (!parser) {
            parser = std::make_unique<simdjson::dom::parser>();
            if (parser->allocate(1 << 16, max_depth))
                return SR_FAST_OOM;
        }
        if (tape_state < 0)
            tape_state = tape_understood(*parser);
        if (!tape_state)
            return SR_FAST_REJECTED; // cJSON reads every line
        simdjson::dom::element root;
        // In place when simdjson's padding lies inside the buffer; else it copies.
        bool padded = avail >= len && avail - len >= simdjson::SIMDJSON_PADDING;
        if (parser->parse(data, len, !padded).get(root))
            return SR_FAST_REJECTED;
        bool maybe = false;
        *is_object = list_members(parser->doc, &maybe);
        if (maybe)
            *duplicate_key = first_duplicate(root);
        *out = members.data();
        *n = members.size();
        return SR_FAST_OK;
    } catch (...) {
        // simdjson reports errors as values; only allocation can throw.
        return SR_FAST_OOM;
    }
}

namespace {

// A cJSON item as a member's value.
sr_jvalue value_of_cjson(const cJSON *c)
{
    sr_jvalue v{};
    v.node = c;
    if (cJSON_IsNumber(c)) {
        v.type = SR_J_NUMBER;
        v.number = c->valuedouble;
    } else if (cJSON_IsString(c)) {
        v.type = SR_J_STRING;
        v.string = c->valuestring ? c->valuestring : "";
        v.length = std::strlen(v.string);
    } else if (cJSON_IsArray(c)) {
        v.type = SR_J_ARRAY;
        for (const cJSON *e = c->child; e; e = e->next)
            v.elements++;
        const cJSON *e = c->child;
        if (e) {
            v.first = cJSON_IsNumber(e)   ? SR_J_NUMBER
                      : cJSON_IsString(e) ? SR_J_STRING
                      : cJSON_IsArray(e)  ? SR_J_ARRAY
                      : cJSON_IsObject(e) ? SR_J_OBJECT
                      : cJSON_IsTrue(e)   ? SR_J_TRUE
                      : cJSON_IsFalse(e)  ? SR_J_FALSE
                                          : SR_J_NULL;
            v.first_string = cJSON_IsString(e) ? e->valuestring : nullptr;
        }
    } else if (cJSON_IsObject(c)) {
        v.type = SR_J_OBJECT;
    } else if (cJSON_IsTrue(c)) {
        v.type = SR_J_TRUE;
    } else if (cJSON_IsFalse(c)) {
        v.type = SR_J_FALSE;
    } else {
        v.type = SR_J_NULL;
    }
    return v;
}

} // namespace

extern "C" void sr_json_members_of_cjson(const cJSON *obj, const sr_jmember **out, size_t *n)
{
    try {
        members.clear();
        for (const cJSON *c = cJSON_IsObject(obj) ? obj->child : nullptr; c; c = c->next) {
            sr_jmember &m = members.next();
            m.key = c->string ? c->string : "";
            m.key_length = std::strlen(m.key);
            m.value = value_of_cjson(c);
        }
    } catch (...) {
        sr_die_oom(); // only allocation can throw
    }
    *out = members.data();
    *n = members.size();
}

extern "C" bool sr_json_object_member(const sr_jvalue *object, const char *key, sr_jvalue *out)
{
    if (object->type != SR_J_OBJECT)
        return false;
    if (object->node) { // cJSON_GetObjectItemCaseSensitive's first match
        for (const cJSON *c = object->node->child; c; c = c->next)
            if (c->string && std::strcmp(c->string, key) == 0) {
                *out = value_of_cjson(c);
                return true;
            }
        return false;
    }
    if (!parser)
        return false;
    tape_walk t(parser->doc);
    size_t n = std::strlen(key), end = t.end_of(object->at) - 1;
    for (size_t j = object->at + 1; j < end;) {
        size_t l;
        const char *k = t.string(j, &l);
        if (l == n && std::memcmp(k, key, n) == 0) {
            t.value(j + 1, *out);
            return true;
        }
        tape_type type = t.type(j + 1);
        j = tape_walk::container(type) ? t.end_of(j + 1) : tape_walk::after_scalar(j + 1, type);
    }
    return false;
}

extern "C" sr_fast_parse sr_json_bench_fast(const char *data, size_t len, size_t avail, cJSON **out,
                                              const char **duplicate_key, sr_fast_requests *requests)
{
    *requests = sr_fast_requests{};
    sr_fast_parse parsed = parse_bench(data, len, avail, out, duplicate_key, &requests_read);
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
