/* str.h - the run-time form of a Python str in compiled code (KnStr) and the kn_rt_str_* routines
 * that work on it. The characters keep CPython's PEP 393 layout (1, 2 or 4 bytes per code point,
 * the narrowest that holds the largest one), so a str argument is borrowed from its Python object
 * without a copy or an allocation, and returning one is one memcpy into PyUnicode_New. Every
 * routine switches on the kinds once at entry and runs a loop specialised for them; the all-ASCII
 * kind-1 case is the fast path. Uses only base/ and runtime.h: no Python.h here. */
#ifndef KN_RUNTIME_STR_H
#define KN_RUNTIME_STR_H

#include <stdint.h>

#include "runtime/runtime.h"

/* A str value. Its lowering is the LLVM struct of these fields in this order (an ABI: compiled
 * code passes pointers to it to the kn_rt_str_* routines).
 *
 * Ownership: `mi` counts the characters' memory. NULL means borrowed: the characters belong to a
 * Python str (`parent`, alive for the whole call: an argument, an item of an argument, a frozen
 * constant) or to static memory (a literal in the code, `parent` NULL). A borrowed str that is
 * stored where it may outlive the call (an item of a container that Python holds, the value
 * returned) is first made owned (kn_rt_str_own), or boxed back as its parent. An owned str's
 * characters may be a view into another owned str's memory (a slice), sharing its mi.
 *
 * The characters are not NUL-terminated in general (views); routines use `length`. */
typedef struct KnStr {
    KnMemInfo *mi;    /* the counted owner of the characters; NULL: borrowed */
    const void *data; /* length code points of kind bytes each */
    int64_t length;   /* in code points */
    int32_t kind;     /* 1, 2 or 4 (PEP 393: the narrowest kind that holds every code point) */
    int32_t ascii;    /* 1: every code point is below 128 (implies kind 1) */
    int64_t hash;     /* CPython's hash(s), or -1 when not computed yet */
    void *parent;     /* the PyObject * a borrowed str came from; NULL otherwise */
} KnStr;

/* ---- routines (str.c). Results are written to *out with a reference of their own (owned, or
 * borrowed static memory); operands are borrowed. Those returning int give 0, or -1 when out of
 * memory (or, where said, a bad value). ---- */

/* the canonical str of n code points of kind `kind` at p: copied into owned memory of the
 * narrowest kind that holds them (the kind-1 one-character strings are static, borrowed) */
int kn_rt_str_make(KnStr *out, const void *p, int64_t n, int32_t kind);
/* a made safe to outlive the call, for storing into a container: a str borrowed from a Python
 * object (mi NULL, parent set) is copied into owned memory; any other is *a, its mi increfed.
 * 0, or -1 when out of memory. */
int kn_rt_str_own(KnStr *out, const KnStr *a);
/* the same for a str already stored without a reference of its own (an entry's field): a
 * borrowed one is replaced by its owned copy, any other left as is (no incref). 0, or -1 when
 * out of memory (*s unchanged). */
int kn_rt_str_own_in_place(KnStr *s);
int kn_rt_str_concat(KnStr *out, const KnStr *a, const KnStr *b);
/* a += b: appends in place (geometric growth) when a owns its characters alone, else concat */
int kn_rt_str_iadd(KnStr *out, const KnStr *a, const KnStr *b);
int kn_rt_str_repeat(KnStr *out, const KnStr *a, int64_t n);
int kn_rt_str_char(KnStr *out, const KnStr *a, int64_t i); /* a[i], 0 <= i < length */
/* a[start:stop:step], Python's slice rules (INT64_MIN: a missing bound; step != 0) */
int kn_rt_str_slice(KnStr *out, const KnStr *a, int64_t start, int64_t stop, int64_t step);
int kn_rt_str_chr(KnStr *out, int64_t cp);             /* -1: out of memory; cp was checked */
int32_t kn_rt_str_code(const KnStr *a, int64_t i);     /* the code point a[i] */
int32_t kn_rt_str_cmp(const KnStr *a, const KnStr *b); /* <0, 0, >0 in code point order */
int32_t kn_rt_str_eq(const KnStr *a, const KnStr *b);
int32_t kn_rt_str_contains(const KnStr *hay, const KnStr *needle);
int64_t kn_rt_str_hash(const KnStr *a); /* CPython's hash(a) (kn_rt_str_hash_bytes) */
/* CPython's hash of bytes (_Py_HashBytes), installed by the dispatcher: the runtime does not
 * link Python */
extern int64_t (*kn_rt_str_hash_bytes)(const void *p, int64_t n);
/* the runtime's one integer-to-decimal routine: the digits of v written backwards, ending just
 * before end (at most 20 bytes); their start. str(int), format() and f-strings all use it. */
char *kn_rt_dec_digits(char *end, uint64_t v);
int kn_rt_str_from_int(KnStr *out, int64_t v);
int kn_rt_str_from_uint(KnStr *out, uint64_t v);
int kn_rt_str_from_float(KnStr *out, double v); /* repr(v): shortest round-trip digits */
/* int(a) and float(a) as CPython parses them: 0, -1 out of memory, -2 not a literal (the text
 * is kept for the message: kn_rt_str_error), -3 (int) past int64 */
int kn_rt_str_to_int(const KnStr *a, int64_t *out);
int kn_rt_str_to_float(const KnStr *a, double *out);
/* the text of the last bad literal of this thread: kind, length and characters (valid until
 * the next call on the thread) */
const void *kn_rt_str_error(int32_t *kind, int64_t *length);

/* record.c: a fixed-length string field of a record (nchars UCS4 code points when unicode,
 * else bytes) read into *out (0, or -1 when out of memory), and written from s */
int kn_rt_record_str_get(KnStr *out, const void *p, int64_t nchars, int32_t unicode);
void kn_rt_record_str_set(void *p, int64_t nchars, int32_t unicode, const KnStr *s);

#endif
