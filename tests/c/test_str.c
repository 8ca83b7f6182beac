/* test_str.c - unit tests for the string method routines (runtime/str_find.c, str_case.c,
 * str_layout.c, str_format.c): edge cases of each (empty strings and separators, maxsplit 0 and
 * -1, overlapping matches in count and replace, haystack and needle of different kinds 1/2/4,
 * CPython's special cases of case mapping, format specs). Strings are written in UTF-8 here and
 * decoded into the narrowest kind, as CPython stores them; the broad comparison against CPython
 * itself is tests/test_str_methods.py. Every result is released; the meminfo counters must
 * balance at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "runtime/runtime.h"
#include "runtime/str_methods.h"

/* ---- strings from UTF-8 ---- */
#define MAXS 16
static uint32_t pool[MAXS][256];
static int pool_next;

static KnStr
S(const char *u)
{
    uint32_t cp[256];
    int64_t n = 0;
    const unsigned char *p = (const unsigned char *)u;
    while (*p) {
        uint32_t c = *p++;
        int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        if (more)
            c &= (1u << (6 - more)) - 1;
        while (more--)
            c = (c << 6) | (*p++ & 0x3F);
        cp[n++] = c;
    }
    uint32_t m = 0;
    for (int64_t i = 0; i < n; i++)
        m = cp[i] > m ? cp[i] : m;
    int kind = m < 256 ? 1 : m < 65536 ? 2 : 4;
    void *buf = pool[pool_next++ % MAXS];
    for (int64_t i = 0; i < n; i++) {
        if (kind == 1)
            ((uint8_t *)buf)[i] = (uint8_t)cp[i];
        else if (kind == 2)
            ((uint16_t *)buf)[i] = (uint16_t)cp[i];
        else
            ((uint32_t *)buf)[i] = cp[i];
    }
    KnStr s = {NULL, buf, n, kind, m < 128, -1, NULL};
    return s;
}

/* UTF-8 of a str into a static buffer; checks its kind is canonical and the ascii flag right */
static const char *
U(const KnStr *s)
{
    static char out[4][1024];
    static int k;
    char *o = out[k++ % 4], *p = o;
    uint32_t m = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = s->kind == 1   ? ((const uint8_t *)s->data)[i]
                     : s->kind == 2 ? ((const uint16_t *)s->data)[i]
                                    : ((const uint32_t *)s->data)[i];
        m = c > m ? c : m;
        if (c < 0x80)
            *p++ = (char)c;
        else if (c < 0x800) {
            *p++ = (char)(0xC0 | (c >> 6));
            *p++ = (char)(0x80 | (c & 63));
        } else if (c < 0x10000) {
            *p++ = (char)(0xE0 | (c >> 12));
            *p++ = (char)(0x80 | ((c >> 6) & 63));
            *p++ = (char)(0x80 | (c & 63));
        } else {
            *p++ = (char)(0xF0 | (c >> 18));
            *p++ = (char)(0x80 | ((c >> 12) & 63));
            *p++ = (char)(0x80 | ((c >> 6) & 63));
            *p++ = (char)(0x80 | (c & 63));
        }
    }
    *p = 0;
    int kind = m < 256 ? 1 : m < 65536 ? 2 : 4;
    if (s->length && (kind != s->kind || (m < 128) != (s->ascii != 0)))
        return "<bad kind or ascii flag>";
    return o;
}

#define CHECK_OUT(expr, want)                                                                      \
    do {                                                                                           \
        KnStr o_;                                                                                  \
        CHECK_EQ_INT(expr, 0);                                                                     \
        CHECK_STR(U(&o_), want);                                                                   \
        kn_rt_decref(o_.mi);                                                                       \
    } while (0)
#define OUT (&o_)

static void
test_find(void)
{
    KnStr s = S("abcabcab"), w = S("héllo→wörld→"), e = S("a😀b😀"), empty = S("");
    CHECK_EQ_INT(kn_rt_str_find(&s, &(KnStr){0}, 0, INT64_MAX), 0); /* zeroed: empty */
    KnStr ab = S("ab"), bc = S("bc"), x = S("x"), arrow = S("→"), emo = S("😀"), o = S("ö");
    CHECK_EQ_INT(kn_rt_str_find(&s, &ab, 0, INT64_MAX), 0);
    CHECK_EQ_INT(kn_rt_str_find(&s, &ab, 1, INT64_MAX), 3);
    CHECK_EQ_INT(kn_rt_str_find(&s, &ab, -2, INT64_MAX), 6);
    CHECK_EQ_INT(kn_rt_str_find(&s, &ab, 1, -3), 3);
    CHECK_EQ_INT(kn_rt_str_find(&s, &ab, 0, -3), 0);
    CHECK_EQ_INT(kn_rt_str_rfind(&s, &ab, 0, INT64_MAX), 6);
    CHECK_EQ_INT(kn_rt_str_rfind(&s, &bc, 0, 7), 4);
    CHECK_EQ_INT(kn_rt_str_find(&s, &x, 0, INT64_MAX), -1);
    CHECK_EQ_INT(kn_rt_str_find(&s, &empty, 8, INT64_MAX), 8);
    CHECK_EQ_INT(kn_rt_str_find(&s, &empty, 9, INT64_MAX), -1);
    CHECK_EQ_INT(kn_rt_str_rfind(&s, &empty, 0, INT64_MAX), 8);
    CHECK_EQ_INT(kn_rt_str_find(&empty, &empty, 0, INT64_MAX), 0);
    CHECK_EQ_INT(kn_rt_str_find(&s, &arrow, 0, INT64_MAX), -1); /* wider needle */
    CHECK_EQ_INT(kn_rt_str_find(&w, &arrow, 0, INT64_MAX), 5);
    CHECK_EQ_INT(kn_rt_str_rfind(&w, &arrow, 0, INT64_MAX), 11);
    CHECK_EQ_INT(kn_rt_str_find(&w, &o, 0, INT64_MAX), 7); /* kind-1 needle, kind-2 text */
    KnStr ld = S("ld");
    CHECK_EQ_INT(kn_rt_str_find(&w, &ld, 0, INT64_MAX), 9);
    CHECK_EQ_INT(kn_rt_str_find(&e, &emo, 0, INT64_MAX), 1);
    CHECK_EQ_INT(kn_rt_str_rfind(&e, &emo, 0, INT64_MAX), 3);
    KnStr b = S("b");
    CHECK_EQ_INT(kn_rt_str_find(&e, &b, 0, INT64_MAX), 2);
    /* count: non-overlapping */
    KnStr aaaa = S("aaaa"), aa = S("aa"), a = S("a");
    CHECK_EQ_INT(kn_rt_str_count(&aaaa, &aa, 0, INT64_MAX), 2);
    CHECK_EQ_INT(kn_rt_str_count(&aaaa, &a, 1, INT64_MAX), 3);
    CHECK_EQ_INT(kn_rt_str_count(&aaaa, &empty, 0, INT64_MAX), 5);
    CHECK_EQ_INT(kn_rt_str_count(&aaaa, &empty, 5, INT64_MAX), 0);
    CHECK_EQ_INT(kn_rt_str_count(&aaaa, &empty, 2, 1), 0);
    CHECK_EQ_INT(kn_rt_str_count(&w, &arrow, 0, INT64_MAX), 2);
    CHECK_EQ_INT(kn_rt_str_count(&e, &emo, 0, INT64_MAX), 2);
    CHECK_EQ_INT(kn_rt_str_count(&s, &emo, 0, INT64_MAX), 0);
    /* startswith / endswith */
    CHECK(kn_rt_str_startswith(&s, &ab, 0, INT64_MAX));
    CHECK(kn_rt_str_startswith(&s, &bc, 1, INT64_MAX));
    CHECK(!kn_rt_str_startswith(&s, &bc, 0, INT64_MAX));
    CHECK(kn_rt_str_startswith(&s, &empty, 8, INT64_MAX));
    CHECK(!kn_rt_str_startswith(&s, &empty, 9, INT64_MAX));
    CHECK(kn_rt_str_endswith(&s, &ab, 0, INT64_MAX));
    CHECK(kn_rt_str_endswith(&s, &bc, 0, 6));
    CHECK(kn_rt_str_endswith(&w, &arrow, 0, INT64_MAX));
    KnStr h = S("h");
    CHECK(kn_rt_str_startswith(&w, &h, 0, INT64_MAX));
    CHECK(!kn_rt_str_startswith(&s, &arrow, 0, INT64_MAX));
    CHECK(kn_rt_str_in(&bc, &s) && !kn_rt_str_in(&x, &s) && kn_rt_str_in(&empty, &empty));
}

static void
test_replace(void)
{
    KnStr s = S("aaaa"), aa = S("aa"), b = S("b"), empty = S(""), w = S("héllo→wörld→");
    KnStr arrow = S("→"), dash = S("-"), emo = S("😀"), o = S("ö"), oe = S("oe");
    CHECK_OUT(kn_rt_str_replace(OUT, &s, &aa, &b, -1), "bb");
    CHECK_OUT(kn_rt_str_replace(OUT, &s, &aa, &b, 1), "baa");
    CHECK_OUT(kn_rt_str_replace(OUT, &s, &aa, &b, 0), "aaaa");
    CHECK_OUT(kn_rt_str_replace(OUT, &s, &empty, &dash, -1), "-a-a-a-a-");
    CHECK_OUT(kn_rt_str_replace(OUT, &s, &empty, &dash, 2), "-a-aaa");
    CHECK_OUT(kn_rt_str_replace(OUT, &empty, &empty, &dash, -1), "-");
    CHECK_OUT(kn_rt_str_replace(OUT, &s, &b, &dash, -1), "aaaa");
    CHECK_OUT(kn_rt_str_replace(OUT, &w, &arrow, &dash, -1), "héllo-wörld-");
    CHECK_OUT(kn_rt_str_replace(OUT, &w, &arrow, &emo, -1), "héllo😀wörld😀");
    CHECK_OUT(kn_rt_str_replace(OUT, &w, &o, &oe, -1), "héllo→woerld→");
    KnStr x = S("a→b"), ascii = S("ab");
    CHECK_OUT(kn_rt_str_replace(OUT, &x, &arrow, &empty, -1), "ab"); /* narrows to kind 1 */
    CHECK_OUT(kn_rt_str_replace(OUT, &ascii, &b, &arrow, -1), "a→");
    KnStr lat = S("é-é"), e = S("é"), ee = S("e");
    CHECK_OUT(kn_rt_str_replace(OUT, &lat, &e, &ee, -1), "e-e"); /* ascii flag comes back */
    KnStr ea = S("ea");
    CHECK_OUT(kn_rt_str_replace(OUT, &ea, &e, &ee, -1), "ea");
}

static void
test_case(void)
{
    KnStr a = S("Hello, World! 123"), s = S("straße"), sig = S("ΟΔΟΣ ΟΔΟΣ."), t = S("ǆemal");
    CHECK_OUT(kn_rt_str_upper(OUT, &a), "HELLO, WORLD! 123");
    CHECK_OUT(kn_rt_str_lower(OUT, &a), "hello, world! 123");
    CHECK_OUT(kn_rt_str_swapcase(OUT, &a), "hELLO, wORLD! 123");
    CHECK_OUT(kn_rt_str_title(OUT, &a), "Hello, World! 123");
    CHECK_OUT(kn_rt_str_upper(OUT, &s), "STRASSE");
    CHECK_OUT(kn_rt_str_casefold(OUT, &s), "strasse");
    CHECK_OUT(kn_rt_str_lower(OUT, &sig), "οδος οδος.");
    CHECK_OUT(kn_rt_str_title(OUT, &t), "ǅemal");
    CHECK_OUT(kn_rt_str_capitalize(OUT, &t), "ǅemal");
    KnStr y = S("ÿ"), k = S("K"), emo = S("a😀b"), dot = S("İ");
    CHECK_OUT(kn_rt_str_upper(OUT, &y), "Ÿ"); /* kind 1 -> 2 */
    CHECK_OUT(kn_rt_str_lower(OUT, &k), "k"); /* Kelvin sign: kind 2 -> 1 */
    CHECK_OUT(kn_rt_str_upper(OUT, &emo), "A😀B");
    CHECK_OUT(kn_rt_str_lower(OUT, &dot), "i̇");
    KnStr empty = S("");
    CHECK_OUT(kn_rt_str_upper(OUT, &empty), "");
    KnStr d = S("٣4"), sp = S(" \t\u2028"), id = S("_héllo1"), bad = S("1a");
    CHECK(kn_rt_str_is(&d, KN_STR_ISDIGIT) && kn_rt_str_is(&d, KN_STR_ISDECIMAL));
    CHECK(kn_rt_str_is(&sp, KN_STR_ISSPACE) && !kn_rt_str_is(&empty, KN_STR_ISSPACE));
    CHECK(kn_rt_str_is(&id, KN_STR_ISIDENTIFIER) && !kn_rt_str_is(&bad, KN_STR_ISIDENTIFIER));
    CHECK(kn_rt_str_is(&s, KN_STR_ISLOWER) && !kn_rt_str_is(&s, KN_STR_ISUPPER));
    CHECK(!kn_rt_str_is(&s, KN_STR_ISASCII) && kn_rt_str_is(&a, KN_STR_ISASCII));
    CHECK(kn_rt_str_is(&empty, KN_STR_ISASCII) && kn_rt_str_is(&empty, KN_STR_ISPRINTABLE));
    KnStr ti = S("Hello World"), nt = S("Hello world");
    CHECK(kn_rt_str_is(&ti, KN_STR_ISTITLE) && !kn_rt_str_is(&nt, KN_STR_ISTITLE));
}

static void
test_layout(void)
{
    KnStr s = S("  \thi there \n"), xs = S("xxhixyx"), xy = S("xy"), w = S("→→héllo→");
    KnStr arrow = S("→");
    CHECK_OUT(kn_rt_str_strip(OUT, &s, NULL, 3), "hi there");
    CHECK_OUT(kn_rt_str_strip(OUT, &s, NULL, 1), "hi there \n");
    CHECK_OUT(kn_rt_str_strip(OUT, &s, NULL, 2), "  \thi there");
    CHECK_OUT(kn_rt_str_strip(OUT, &xs, &xy, 3), "hi");
    CHECK_OUT(kn_rt_str_strip(OUT, &w, &arrow, 3), "héllo"); /* a kind-2 view narrows */
    KnStr n = S("-42"), e = S("");
    CHECK_OUT(kn_rt_str_zfill(OUT, &n, 6), "-00042");
    CHECK_OUT(kn_rt_str_zfill(OUT, &e, 3), "000");
    CHECK_OUT(kn_rt_str_zfill(OUT, &n, 2), "-42");
    KnStr ab = S("ab"), abc = S("abc");
    CHECK_OUT(kn_rt_str_pad(OUT, &ab, 5, '*', '^'), "**ab*");
    CHECK_OUT(kn_rt_str_pad(OUT, &abc, 6, '*', '^'), "*abc**");
    CHECK_OUT(kn_rt_str_pad(OUT, &abc, 4, 0x2192, '<'), "abc→");
    CHECK_OUT(kn_rt_str_pad(OUT, &abc, 5, '-', '>'), "--abc");
    KnStr tabs = S("a\tbc\t\nx\ty");
    CHECK_OUT(kn_rt_str_expandtabs(OUT, &tabs, 4), "a   bc  \nx   y");
    CHECK_OUT(kn_rt_str_expandtabs(OUT, &tabs, 0), "abc\nxy");
    KnStr p = S("a=b=c"), eq = S("="), parts[3];
    CHECK_EQ_INT(kn_rt_str_partition(parts, &p, &eq, 0), 0);
    CHECK_STR(U(&parts[0]), "a");
    CHECK_STR(U(&parts[2]), "b=c");
    for (int i = 0; i < 3; i++)
        kn_rt_decref(parts[i].mi);
    CHECK_EQ_INT(kn_rt_str_partition(parts, &p, &arrow, 1), 0);
    CHECK_STR(U(&parts[0]), "");
    CHECK_STR(U(&parts[2]), "a=b=c");
    for (int i = 0; i < 3; i++)
        kn_rt_decref(parts[i].mi);
}

/* the pieces joined by '|' */
static const char *
pieces(KnStrVec *v)
{
    static char buf[1024];
    buf[0] = 0;
    for (int64_t i = 0; i < v->len; i++) {
        if (i)
            strcat(buf, "|");
        strcat(buf, U(&v->items[i]));
    }
    kn_rt_str_vec_free(v);
    return buf;
}

static void
test_split(void)
{
    KnStrVec v;
    KnStr s = S("  a b\t\tc  "), comma = S(","), c = S("a,,b,"), empty = S("");
    CHECK_EQ_INT(kn_rt_str_split(&v, &s, NULL, -1, 0), 0);
    CHECK_STR(pieces(&v), "a|b|c");
    CHECK_EQ_INT(kn_rt_str_split(&v, &s, NULL, 1, 0), 0);
    CHECK_STR(pieces(&v), "a|b\t\tc  ");
    CHECK_EQ_INT(kn_rt_str_split(&v, &s, NULL, 0, 0), 0);
    CHECK_STR(pieces(&v), "a b\t\tc  ");
    CHECK_EQ_INT(kn_rt_str_split(&v, &s, NULL, 1, 1), 0);
    CHECK_STR(pieces(&v), "  a b|c");
    CHECK_EQ_INT(kn_rt_str_split(&v, &empty, NULL, -1, 0), 0);
    CHECK_EQ_INT(v.len, 0);
    kn_rt_str_vec_free(&v);
    CHECK_EQ_INT(kn_rt_str_split(&v, &c, &comma, -1, 0), 0);
    CHECK_STR(pieces(&v), "a||b|");
    CHECK_EQ_INT(kn_rt_str_split(&v, &c, &comma, 1, 1), 0);
    CHECK_STR(pieces(&v), "a,,b|");
    CHECK_EQ_INT(kn_rt_str_split(&v, &empty, &comma, -1, 0), 0);
    CHECK_EQ_INT(v.len, 1);
    kn_rt_str_vec_free(&v);
    KnStr w = S("x→y→😀→"), arrow = S("→");
    CHECK_EQ_INT(kn_rt_str_split(&v, &w, &arrow, -1, 0), 0);
    CHECK_STR(pieces(&v), "x|y|😀|");
    KnStr u = S("é\u3000b");
    CHECK_EQ_INT(kn_rt_str_split(&v, &u, NULL, -1, 0), 0);
    CHECK_STR(pieces(&v), "é|b");
    KnStr lines = S("a\nb\r\nc\rd\u2028e\n");
    CHECK_EQ_INT(kn_rt_str_splitlines(&v, &lines, 0), 0);
    CHECK_STR(pieces(&v), "a|b|c|d|e");
    CHECK_EQ_INT(kn_rt_str_splitlines(&v, &lines, 1), 0);
    CHECK_STR(pieces(&v), "a\n|b\r\n|c\r|d\u2028|e\n");
    KnStr items[3] = {S("a"), S("→"), S("c")}, sep = S(", ");
    CHECK_OUT(kn_rt_str_join(OUT, &sep, items, 3), "a, →, c");
    CHECK_OUT(kn_rt_str_join(OUT, &sep, items, 0), "");
    CHECK_OUT(kn_rt_str_join(OUT, &comma, items, 1), "a");
}

static const char *
fmt_i(int64_t v, const char *spec)
{
    KnFormatSpec sp;
    KnStr t = S(spec), o;
    if (kn_rt_format_parse(&sp, &t))
        return "<bad spec>";
    if (kn_rt_format_int(&o, v, &sp))
        return "<error>";
    const char *r = U(&o);
    kn_rt_decref(o.mi);
    return r;
}

static const char *
fmt_f(double v, const char *spec)
{
    KnFormatSpec sp;
    KnStr t = S(spec), o;
    if (kn_rt_format_parse(&sp, &t))
        return "<bad spec>";
    if (kn_rt_format_float(&o, v, &sp))
        return "<error>";
    const char *r = U(&o);
    kn_rt_decref(o.mi);
    return r;
}

static void
test_format(void)
{
    CHECK_STR(fmt_i(1234, ""), "1234");
    CHECK_STR(fmt_i(-1234, "09,"), "-0,001,234");
    CHECK_STR(fmt_i(1234, "010,"), "00,001,234");
    CHECK_STR(fmt_i(255, "#010x"), "0x000000ff");
    CHECK_STR(fmt_i(255, "011_x"), "0_0000_00ff");
    CHECK_STR(fmt_i(255, "X"), "FF");
    CHECK_STR(fmt_i(5, "b"), "101");
    CHECK_STR(fmt_i(5, "→^7"), "→→→5→→→");
    CHECK_STR(fmt_i(5, "+"), "+5");
    CHECK_STR(fmt_i(-5, "=+5"), "-   5");
    CHECK_STR(fmt_i(INT64_MIN, ","), "-9,223,372,036,854,775,808");
    CHECK_STR(fmt_i(5, "e"), "5.000000e+00");
    CHECK_STR(fmt_f(12345.678, "^20,.2f"), "     12,345.68      ");
    CHECK_STR(fmt_f(0.1, ""), "0.1");
    CHECK_STR(fmt_f(1e16, ""), "1e+16");
    CHECK_STR(fmt_f(1.5e-5, ""), "1.5e-05");
    CHECK_STR(fmt_f(123.0, ".3"), "1.23e+02");
    CHECK_STR(fmt_f(12.0, ".3"), "12.0");
    CHECK_STR(fmt_f(1.0, "#g"), "1.00000");
    CHECK_STR(fmt_f(100.0, "g"), "100");
    CHECK_STR(fmt_f(0.5, ".0%"), "50%");
    CHECK_STR(fmt_f(-0.0001, "z.1f"), "0.0");
    CHECK_STR(fmt_f(1.0 / 0.0, "010"), "0000000inf");
    CHECK_STR(fmt_f(-1.0 / 0.0, "E"), "-INF");
    CHECK_STR(fmt_f(2.5, ".0f"), "2");
    CHECK_STR(fmt_f(1e22, ".30"), "10000000000000000000000.0");
    CHECK_STR(fmt_f(-1234.5, "+012,.1f"), "-0,001,234.5");
    KnFormatSpec sp;
    KnStr bad = S("5.x"), bad2 = S(",,"), st = S("héllo"), o;
    CHECK_EQ_INT(kn_rt_format_parse(&sp, &bad), -2);
    CHECK_EQ_INT(kn_rt_format_parse(&sp, &bad2), -2);
    KnStr spec = S("*^9.3");
    CHECK_EQ_INT(kn_rt_format_parse(&sp, &spec), 0);
    CHECK_EQ_INT(kn_rt_format_str(&o, &st, &sp), 0);
    CHECK_STR(U(&o), "***hél***");
    kn_rt_decref(o.mi);
    KnStr dspec = S("d");
    CHECK_EQ_INT(kn_rt_format_parse(&sp, &dspec), 0);
    CHECK_EQ_INT(kn_rt_format_float(&o, 1.5, &sp), -2);
    CHECK_EQ_INT(kn_rt_format_str(&o, &st, &sp), -2);
    KnStr prec = S(".2");
    CHECK_EQ_INT(kn_rt_format_parse(&sp, &prec), 0);
    CHECK_EQ_INT(kn_rt_format_int(&o, 1, &sp), -3);
    /* repr */
    KnStr q = S("it's \"x\"\n\t\\é\xc2\x85😀\x01");
    CHECK_OUT(kn_rt_str_repr(OUT, &q), "'it\\'s \"x\"\\n\\t\\\\é\\x85😀\\x01'");
    KnStr q2 = S("it's");
    CHECK_OUT(kn_rt_str_repr(OUT, &q2), "\"it's\"");
    CHECK_OUT(kn_rt_float_repr(OUT, -0.0), "-0.0");
    CHECK_OUT(kn_rt_float_repr(OUT, 1e-7), "1e-07");
    CHECK_OUT(kn_rt_float_repr(OUT, 123456789012345678.0), "1.2345678901234568e+17");
    CHECK_OUT(kn_rt_float_repr(OUT, 5e-324), "5e-324");
    CHECK_OUT(kn_rt_float_repr(OUT, 0.30000000000000004), "0.30000000000000004");
}

int
main(void)
{
    test_find();
    test_replace();
    test_case();
    test_layout();
    test_split();
    test_format();
    KnRtStats st;
    kn_rt_stats(&st);
    CHECK_EQ_INT(st.mi_alloc, st.mi_free);
    printf("test_str: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
