/* str_methods.h - the str methods, str.format and f-string pieces as run-time routines
 * (str_find.c, str_case.c, str_layout.c, str_format.c over the character database in
 * str_unicode.c). Each routine switches on the kinds of its operands once at entry and runs a
 * loop for them; kind-1 text goes through memchr/memmem/memcpy. Results are new references
 * written to *out (owned memory, a view sharing an owned operand's memory, or the operand
 * itself when nothing changes, as CPython returns self); operands are borrowed. Routines that
 * return int give 0, or -1 when out of memory. Behaviour is CPython's for the same call,
 * non-ASCII included (case mappings, Unicode categories: the tables are generated from the
 * interpreter the extension is built for). No Python here. */
#ifndef KN_RUNTIME_STR_METHODS_H
#define KN_RUNTIME_STR_METHODS_H

#include <stdint.h>

#include "runtime/str.h"

/* ---- search (str_find.c). start/end as Python's slice bounds (negative from the end; 0 and
 * INT64_MAX for none) ---- */
int64_t kn_rt_str_find(const KnStr *s, const KnStr *sub, int64_t start, int64_t end);
int64_t kn_rt_str_rfind(const KnStr *s, const KnStr *sub, int64_t start, int64_t end);
int64_t kn_rt_str_count(const KnStr *s, const KnStr *sub, int64_t start, int64_t end);
int32_t kn_rt_str_startswith(const KnStr *s, const KnStr *prefix, int64_t start, int64_t end);
int32_t kn_rt_str_endswith(const KnStr *s, const KnStr *suffix, int64_t start, int64_t end);
int32_t kn_rt_str_in(const KnStr *sub, const KnStr *s); /* sub in s */
/* s.replace(old, new, count); count < 0: all */
int kn_rt_str_replace(KnStr *out, const KnStr *s, const KnStr *old, const KnStr *new_,
                      int64_t count);

/* ---- case (str_case.c) ---- */
int kn_rt_str_upper(KnStr *out, const KnStr *s);
int kn_rt_str_lower(KnStr *out, const KnStr *s);
int kn_rt_str_casefold(KnStr *out, const KnStr *s);
int kn_rt_str_swapcase(KnStr *out, const KnStr *s);
int kn_rt_str_title(KnStr *out, const KnStr *s);
int kn_rt_str_capitalize(KnStr *out, const KnStr *s);
enum {
    KN_STR_ISDIGIT,
    KN_STR_ISALPHA,
    KN_STR_ISALNUM,
    KN_STR_ISSPACE,
    KN_STR_ISUPPER,
    KN_STR_ISLOWER,
    KN_STR_ISTITLE,
    KN_STR_ISDECIMAL,
    KN_STR_ISNUMERIC,
    KN_STR_ISIDENTIFIER,
    KN_STR_ISASCII,
    KN_STR_ISPRINTABLE
};
int32_t kn_rt_str_is(const KnStr *s, int32_t which); /* s.isdigit() ... by KN_STR_IS* */

/* ---- layout (str_layout.c) ---- */
/* which: 1 lstrip, 2 rstrip, 3 strip; chars NULL: whitespace */
int kn_rt_str_strip(KnStr *out, const KnStr *s, const KnStr *chars, int32_t which);
int kn_rt_str_zfill(KnStr *out, const KnStr *s, int64_t width);
/* align: '<' ljust, '>' rjust, '^' center; fill: one code point */
int kn_rt_str_pad(KnStr *out, const KnStr *s, int64_t width, uint32_t fill, int32_t align);
/* out[0..2] = s.partition(sep) (rpartition when reverse); sep non-empty (the caller raises) */
int kn_rt_str_partition(KnStr *out, const KnStr *s, const KnStr *sep, int32_t reverse);
int kn_rt_str_expandtabs(KnStr *out, const KnStr *s, int64_t tabsize);

/* The pieces of split/rsplit/splitlines, in order: a growable array of strs (malloc'd, not
 * counted; each item a reference of its own). kn_rt_str_vec_free releases items and buffer;
 * a caller that takes the items over sets len to 0 first. */
typedef struct KnStrVec {
    KnStr *items;
    int64_t len, cap;
} KnStrVec;
void kn_rt_str_vec_free(KnStrVec *v);
/* s.split(sep, maxsplit) (rsplit when reverse): sep NULL splits on runs of whitespace; a
 * non-NULL sep is non-empty (the caller raises "empty separator"); maxsplit < 0: no limit */
int kn_rt_str_split(KnStrVec *out, const KnStr *s, const KnStr *sep, int64_t maxsplit,
                    int32_t reverse);
int kn_rt_str_splitlines(KnStrVec *out, const KnStr *s, int32_t keepends);
/* sep.join(items[0:n]) */
int kn_rt_str_join(KnStr *out, const KnStr *sep, const KnStr *items, int64_t n);
/* The same producing and taking lists of str (runtime/list.h; KnMemInfo * of a KnList of KnStr
 * items): 0, -1 out of memory, -2 an empty separator (split: the caller raises ValueError). */
int kn_rt_str_split_list(KnMemInfo **out, const KnStr *s, const KnStr *sep, int64_t maxsplit,
                         int32_t reverse);
int kn_rt_str_splitlines_list(KnMemInfo **out, const KnStr *s, int32_t keepends);
int kn_rt_str_join_list(KnStr *out, const KnStr *sep, KnMemInfo *list);

/* ---- formatting (str_format.c) ----
 * A format spec, parsed once (at compile time when it is a constant, else at run time):
 * [[fill]align][sign][z][#][0][width][grouping][.precision][type]. */
typedef struct KnFormatSpec {
    uint32_t fill;     /* ' ' by default */
    int32_t align;     /* '<', '>', '^', '=' or 0 (the type's default) */
    int32_t sign;      /* '+', '-', ' ' or 0 */
    int32_t alt;       /* '#' */
    int32_t zero;      /* '0' before the width */
    int32_t grouping;  /* ',', '_' or 0 */
    int32_t type;      /* 'd', 'x', ..., or 0 */
    int32_t no_neg_0;  /* 'z' (3.11+) */
    int64_t width;     /* -1: none */
    int64_t precision; /* -1: none */
} KnFormatSpec;
/* 0, or -2 when the spec is not a valid one (CPython's "Invalid format specifier") */
int kn_rt_format_parse(KnFormatSpec *spec, const KnStr *text);
/* format(v, spec) for an int, a float, a str: 0, -1 out of memory, -2 a type the value does
 * not take ("Unknown format code 'x' for object of type 'float'"), -3 a spec the type refuses
 * (sign or '=' for a str, precision for an int, ',' with 'x') */
int kn_rt_format_int(KnStr *out, int64_t v, const KnFormatSpec *spec);
int kn_rt_format_uint(KnStr *out, uint64_t v, const KnFormatSpec *spec);
int kn_rt_format_float(KnStr *out, double v, const KnFormatSpec *spec);
int kn_rt_format_str(KnStr *out, const KnStr *s, const KnFormatSpec *spec);
int kn_rt_format_bool(KnStr *out, int32_t v, const KnFormatSpec *spec);
/* the same with the spec as text (str.format with a spec known only at run time) */
int kn_rt_format_int_s(KnStr *out, int64_t v, const KnStr *spec);
int kn_rt_format_uint_s(KnStr *out, uint64_t v, const KnStr *spec);
int kn_rt_format_float_s(KnStr *out, double v, const KnStr *spec);
int kn_rt_format_str_s(KnStr *out, const KnStr *s, const KnStr *spec);
/* repr(v) of a float (CPython's shortest round-trip digits) and of a str (quotes, escapes of
 * non-printable characters as CPython) */
int kn_rt_float_repr(KnStr *out, double v);
/* the digits of v >= 0 by CPython itself: code 'r' (repr), 'e' or 'f' at precision prec, alt
 * for '#', into buf[size] (installed by the dispatcher; NULL, or -1 returned when it cannot
 * answer, e.g. without the GIL): the length written */
extern int (*kn_rt_float_repr_hook)(double v, int code, int prec, int alt, char *buf, int size);
int kn_rt_str_repr(KnStr *out, const KnStr *s);
int kn_rt_str_ascii(KnStr *out, const KnStr *s); /* ascii(s) */

/* ---- str.format of a run-time format string (str_format_args.c) ---- */
enum { KN_FA_INT, KN_FA_UINT, KN_FA_FLOAT, KN_FA_BOOL, KN_FA_STR }; /* KnFmtArg.tag */
typedef struct KnFmtArg {
    int32_t tag, pad;
    int64_t bits;   /* an int, a uint64, a bool (0/1), or a double's bits */
    const KnStr *s; /* KN_FA_STR */
} KnFmtArg;
/* statuses of kn_rt_str_format_args (besides -1 out of memory and format()'s -2 and -3) */
enum {
    KN_FMT_SINGLE_RBRACE = -10,    /* Single '}' encountered in format string */
    KN_FMT_END = -11,              /* expected '}' before end of string */
    KN_FMT_UNMATCHED = -12,        /* unmatched '{' in format spec */
    KN_FMT_TO_AUTO = -13,          /* cannot switch from manual ... to automatic field numbering */
    KN_FMT_TO_MANUAL = -14,        /* cannot switch from automatic ... to manual ... */
    KN_FMT_INDEX = -15,            /* IndexError: *err is the index */
    KN_FMT_KEY = -16,              /* KeyError: the name given to kn_rt_dict_key_error_str */
    KN_FMT_FIELD_ACCESS = -17,     /* {0[1]}, {0.x}: only in literal format strings */
    KN_FMT_CONVERSION = -18,       /* Unknown conversion specifier */
    KN_FMT_END_CONVERSION = -19,   /* end of string while looking for conversion specifier */
    KN_FMT_AFTER_CONVERSION = -20, /* expected ':' after conversion specifier */
    KN_FMT_RECURSION = -21,        /* Max string recursion exceeded */
    KN_FMT_SINGLE_LBRACE = -22,    /* Single '{' encountered in format string */
};
/* fmt.format(*args[0..npos), **{names[k]: args[npos + k]}) */
int kn_rt_str_format_args(KnStr *out, const KnStr *fmt, const KnFmtArg *args, int64_t npos,
                          const KnStr *names, int64_t nkw, int64_t *err);
/* the shortest round-trip digits of finite v != 0 into digits (no dot, no sign, <= 17) with
 * the decimal exponent: v = 0.d1d2... * 10^exp10; returns the digit count */
int kn_rt_float_shortest(double v, char *digits, int *exp10);
/* the concatenation of n strs (f-string pieces): 0 or -1 */
int kn_rt_str_build(KnStr *out, const KnStr *parts, int64_t n);

#endif
