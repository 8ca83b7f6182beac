/* str_format.c - format specs for int, float, bool and str (what format(v, spec), f-strings and
 * str.format do), repr of floats (shortest round-trip digits, CPython's layout) and of strs
 * (CPython's quotes and escapes), and the concatenation of f-string pieces (str_methods.h).
 *
 * A number is laid out as CPython's formatter does: sign, prefix (0x ...), the digits of the
 * integer part (grouped by ',' or '_' in threes, or fours for x/o/b; zero padding requested by
 * '0' or fill '0' with '=' is grouped too), the remainder (point, fraction, exponent, '%'), then
 * the fill on the side the alignment says ('=': between the sign and the digits). The digits of
 * floats come from the C library's correctly rounded printf (CPython's are correctly rounded
 * too, so they agree for every precision); the shortest repr tries increasing precisions and
 * keeps the first that reads back to the same double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/str_methods.h"
#include "runtime/str_util.h"

/* ---- the spec ---- */
static int
is_align(uint32_t c)
{
    return c == '<' || c == '>' || c == '^' || c == '=';
}

int
kn_rt_format_parse(KnFormatSpec *sp, const KnStr *text)
{
    memset(sp, 0, sizeof *sp);
    sp->fill = ' ';
    sp->width = sp->precision = -1;
    int64_t n = text->length, i = 0;
    int fill_given = 0;
#define AT(k) ((k) < n ? slib_read(text->kind, text->data, (k)) : 0u)
    if (n >= 2 && is_align(AT(1))) {
        sp->fill = AT(0);
        fill_given = 1;
        sp->align = (int32_t)AT(1);
        i = 2;
    } else if (n >= 1 && is_align(AT(0))) {
        sp->align = (int32_t)AT(0);
        i = 1;
    }
    if (AT(i) == '+' || AT(i) == '-' || AT(i) == ' ') {
        sp->sign = (int32_t)AT(i);
        i++;
    }
    if (AT(i) == 'z') {
        sp->no_neg_0 = 1;
        i++;
    }
    if (AT(i) == '#') {
        sp->alt = 1;
        i++;
    }
    if (AT(i) == '0') {
        sp->zero = 1;
        i++;
    }
    if (i < n && AT(i) >= '0' && AT(i) <= '9') {
        int64_t w = 0;
        while (i < n && AT(i) >= '0' && AT(i) <= '9') {
            if (w > (INT64_MAX - 9) / 10)
                return -2;
            w = w * 10 + (AT(i) - '0');
            i++;
        }
        sp->width = w;
    } else if (sp->zero)
        sp->width = 0;
    if (sp->zero && !fill_given) {
        /* "0" before the width: zero fill, and '=' unless an alignment was given */
        sp->fill = '0';
        if (!sp->align)
            sp->align = 0x100; /* '=' for numbers, the default '<' for strs */
    }
    if (AT(i) == ',' || AT(i) == '_') {
        sp->grouping = (int32_t)AT(i);
        i++;
        if (AT(i) == ',' || AT(i) == '_')
            return -2;
    }
    if (AT(i) == '.') {
        i++;
        if (!(i < n && AT(i) >= '0' && AT(i) <= '9'))
            return -2;
        int64_t p = 0;
        while (i < n && AT(i) >= '0' && AT(i) <= '9') {
            if (p > (INT64_MAX - 9) / 10)
                return -2;
            p = p * 10 + (AT(i) - '0');
            i++;
        }
        sp->precision = p;
    }
    if (n - i > 1)
        return -2;
    if (n - i == 1) {
        uint32_t t = AT(i);
        if (t > 127)
            return -2;
        sp->type = (int32_t)t;
    }
#undef AT
    return 0;
}

/* ---- output of an ASCII layout with an arbitrary fill ---- */
typedef struct Layout {
    char sign; /* 0 or one character */
    const char *prefix;
    const char *digits; /* integer part, ungrouped */
    int64_t ndigits;
    const char *rest; /* point, fraction, exponent, '%' */
    int64_t nrest;
    int upper; /* digits and prefix upper-cased (X, E, G, F) */
} Layout;

/* grouped digits written backwards from end; returns how many characters (CPython's loop,
 * zeros added until min_width is reached) */
static int64_t
group(char *end, const char *digits, int64_t nd, int gsize, char sep, int64_t min_width)
{
    int64_t count = 0, remaining = nd;
    int use_sep = 0;
    char *p = end;
    for (;;) {
        int64_t l = gsize;
        int64_t m = remaining > min_width ? remaining : min_width;
        if (m < 1)
            m = 1;
        l = l < m ? l : m;
        int64_t zeros = l - remaining > 0 ? l - remaining : 0;
        int64_t chars = remaining < l ? (remaining > 0 ? remaining : 0) : l;
        if (use_sep) {
            if (p)
                *--p = sep;
            count++;
        }
        for (int64_t i = 0; i < chars; i++) {
            if (p)
                *--p = digits[remaining - 1 - i];
        }
        for (int64_t i = 0; i < zeros; i++)
            if (p)
                *--p = '0';
        count += zeros + chars;
        remaining -= chars;
        min_width -= l;
        if (remaining <= 0 && min_width <= 0)
            break;
        min_width -= 1;
        use_sep = 1;
    }
    return count;
}

static int
emit_number(KnStr *out, const Layout *lo, const KnFormatSpec *sp)
{
    int align = sp->align == 0x100 ? '=' : sp->align ? sp->align : '>';
    uint32_t fill = sp->fill;
    int64_t nprefix = (int64_t)strlen(lo->prefix), left_side = (lo->sign != 0) + nprefix;
    int64_t min_width = 0;
    if (fill == '0' && align == '=' && sp->width > 0)
        min_width = sp->width - left_side - lo->nrest;
    int gsize =
        sp->grouping
            ? ((sp->type == 'x' || sp->type == 'X' || sp->type == 'o' || sp->type == 'b') ? 4 : 3)
            : 0;
    int64_t ndig;
    char *gbuf = NULL;
    if (lo->ndigits && (gsize || min_width > lo->ndigits)) {
        if (!gsize)
            gsize = (int)(min_width + 1); /* one group: zeros only */
        ndig = group(NULL, lo->digits, lo->ndigits, gsize, (char)sp->grouping, min_width);
        gbuf = malloc((size_t)ndig + 1);
        if (!gbuf)
            return -1;
        group(gbuf + ndig, lo->digits, lo->ndigits, gsize, (char)sp->grouping, min_width);
    } else
        ndig = lo->ndigits;
    int64_t body = left_side + ndig + lo->nrest;
    int64_t pad = sp->width > body ? sp->width - body : 0;
    int64_t lpad = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    int64_t mpad = align == '=' ? pad : 0;
    int64_t rpad = pad - lpad - mpad;
    int k = pad ? slib_kind_for(fill) : 1;
    if (slib_alloc(out, body + pad, k, !pad || fill < 128)) {
        free(gbuf);
        return -1;
    }
    void *d = (void *)out->data;
    int64_t w = 0;
    for (int64_t i = 0; i < lpad; i++)
        slib_write(k, d, w++, fill);
    if (lo->sign)
        slib_write(k, d, w++, (uint8_t)lo->sign);
    for (int64_t i = 0; i < nprefix; i++)
        slib_write(k, d, w++, (uint8_t)lo->prefix[i]);
    for (int64_t i = 0; i < mpad; i++)
        slib_write(k, d, w++, fill);
    const char *dg = gbuf ? gbuf : lo->digits;
    for (int64_t i = 0; i < ndig; i++) {
        char c = dg[i];
        if (lo->upper && c >= 'a' && c <= 'z')
            c = (char)(c - 32);
        slib_write(k, d, w++, (uint8_t)c);
    }
    for (int64_t i = 0; i < lo->nrest; i++) {
        char c = lo->rest[i];
        if (lo->upper && c >= 'a' && c <= 'z')
            c = (char)(c - 32);
        slib_write(k, d, w++, (uint8_t)c);
    }
    for (int64_t i = 0; i < rpad; i++)
        slib_write(k, d, w++, fill);
    free(gbuf);
    return 0;
}

static char
sign_char(int neg, const KnFormatSpec *sp)
{
    if (neg)
        return '-';
    return sp->sign == '+' ? '+' : sp->sign == ' ' ? ' ' : 0;
}

/* ---- ints ---- */
static int
is_empty_spec(const KnFormatSpec *sp)
{
    return !sp->type && sp->width < 0 && sp->precision < 0 && !sp->sign && !sp->alt &&
           !sp->grouping && !sp->align && !sp->no_neg_0;
}

static int
format_magnitude(KnStr *out, int neg, uint64_t mag, const KnFormatSpec *sp)
{
    int t = sp->type ? sp->type : 'd';
    if (t == 'n' && sp->grouping)
        return -3; /* Cannot specify ',' with 'n'. */
    if (t == 'n')
        t = 'd';
    if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
        double v = (double)mag;
        return kn_rt_format_float(out, neg ? -v : v, sp);
    }
    if (sp->precision >= 0 || sp->no_neg_0)
        return -3; /* Precision (or z) not allowed in integer format specifier */
    if (sp->grouping == ',' && t != 'd')
        return -3; /* Cannot specify ',' with 'x'. */
    if (t == 'c') {
        if (sp->sign || sp->alt || sp->grouping || neg || mag > 0x10FFFF)
            return -3;
        KnStr ch;
        uint32_t c = (uint32_t)mag;
        int ck = slib_kind_for(c);
        if (slib_alloc(&ch, 1, ck, c < 128))
            return -1;
        slib_write(ck, (void *)ch.data, 0, c);
        KnFormatSpec s2 = *sp;
        s2.type = 's';
        if (s2.align == 0x100 || !s2.align || s2.align == '=')
            s2.align = '>';
        int rc = kn_rt_format_str(out, &ch, &s2);
        slib_release(&ch);
        return rc;
    }
    int base = t == 'd' ? 10 : (t == 'x' || t == 'X') ? 16 : t == 'o' ? 8 : t == 'b' ? 2 : 0;
    if (!base)
        return -2;
    char buf[72], *p = buf + sizeof buf;
    if (base == 10)
        p = kn_rt_dec_digits(p, mag);
    else
        do {
            *--p = "0123456789abcdef"[mag % (unsigned)base];
            mag /= (unsigned)base;
        } while (mag);
    Layout lo = {sign_char(neg, sp), "", p, buf + sizeof buf - p, "", 0, t == 'X'};
    if (sp->alt)
        lo.prefix = base == 16  ? (t == 'X' ? "0X" : "0x")
                    : base == 8 ? "0o"
                    : base == 2 ? "0b"
                                : "";
    return emit_number(out, &lo, sp);
}

int
kn_rt_format_int(KnStr *out, int64_t v, const KnFormatSpec *sp)
{
    if (is_empty_spec(sp)) /* f"{i}", format(i): exactly str(i) */
        return kn_rt_str_from_int(out, v);
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return format_magnitude(out, v < 0, mag, sp);
}

int
kn_rt_format_uint(KnStr *out, uint64_t v, const KnFormatSpec *sp)
{
    if (is_empty_spec(sp))
        return kn_rt_str_from_uint(out, v);
    return format_magnitude(out, 0, v, sp);
}

static int
put_ascii(KnStr *out, const char *p, int64_t n)
{
    if (slib_alloc(out, n, 1, 1))
        return -1;
    memcpy((void *)out->data, p, (size_t)n);
    return 0;
}

int
kn_rt_format_bool(KnStr *out, int32_t v, const KnFormatSpec *sp)
{
    if (is_empty_spec(sp))
        return v ? put_ascii(out, "True", 4) : put_ascii(out, "False", 5);
    return kn_rt_format_int(out, v != 0, sp);
}

/* ---- floats ---- */
/* v ~ D * 10^E with D of n digits (%.*e at n digits, correctly rounded) */
static void
decimal_of(double v, int n, uint64_t *D, int *E)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.*e", n - 1, v);
    uint64_t d = 0;
    const char *p = buf;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            d = d * 10 + (uint64_t)(*p - '0');
    *D = d;
    *E = atoi(p + 1) - (n - 1);
}

static int
reads_back(uint64_t D, int E, double v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)D, E);
    return strtod(buf, NULL) == v;
}

int
kn_rt_float_shortest(double v, char *digits, int *exp10)
{
    v = fabs(v);
    int lo = 1, hi = 17;
    uint64_t D;
    int E;
    while (lo < hi) { /* the least precision whose correctly rounded digits read back */
        int mid = (lo + hi) / 2;
        decimal_of(v, mid, &D, &E);
        if (reads_back(D, E, v))
            hi = mid;
        else
            lo = mid + 1;
    }
    decimal_of(v, lo, &D, &E);
    /* A shorter string may still read back when the nearest one of that length does not (the
     * interval of decimals that round to v is not centred on the nearest): try its neighbours. */
    for (int n = lo; n > 1; n--) {
        uint64_t d;
        int e;
        decimal_of(v, n - 1, &d, &e);
        int up = reads_back(d + 1, e, v), down = d > 0 && reads_back(d - 1, e, v);
        if (!up && !down)
            break;
        if (up && down) { /* the closer one, as the shortest-repr rule says */
            long double x = (long double)v, su = ((long double)(d + 1)), sd = (long double)(d - 1);
            long double scale = powl(10.0L, (long double)e);
            up = fabsl(su * scale - x) <= fabsl(x - sd * scale);
        }
        D = up ? d + 1 : d - 1;
        E = e;
    }
    char buf[24];
    int m = snprintf(buf, sizeof buf, "%llu", (unsigned long long)D);
    int k = m;
    while (k > 1 && buf[k - 1] == '0')
        k--;
    memcpy(digits, buf, (size_t)k);
    *exp10 = m + E;
    return k;
}

/* digits d[0..n) with the point after decpt digits, in CPython's repr layout (exponent when
 * decpt <= -4 or > 16), into buf; returns the length */
static int
repr_layout(char *buf, const char *d, int n, int decpt)
{
    int k = 0;
    if (decpt <= -4 || decpt > 16) {
        buf[k++] = d[0];
        if (n > 1) {
            buf[k++] = '.';
            memcpy(buf + k, d + 1, (size_t)(n - 1));
            k += n - 1;
        }
        k += snprintf(buf + k, 8, "e%c%02d", decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
        return k;
    }
    if (decpt <= 0) {
        buf[k++] = '0';
        buf[k++] = '.';
        for (int i = 0; i < -decpt; i++)
            buf[k++] = '0';
        memcpy(buf + k, d, (size_t)n);
        return k + n;
    }
    if (decpt >= n) {
        memcpy(buf, d, (size_t)n);
        k = n;
        for (int i = n; i < decpt; i++)
            buf[k++] = '0';
        buf[k++] = '.';
        buf[k++] = '0';
        return k;
    }
    memcpy(buf, d, (size_t)decpt);
    k = decpt;
    buf[k++] = '.';
    memcpy(buf + k, d + decpt, (size_t)(n - decpt));
    return k + n - decpt;
}

int (*kn_rt_float_repr_hook)(double v, int code, int prec, int alt, char *buf, int size);

/* repr(v) without its sign into buf (>= 32 bytes); returns the length */
static int
repr_abs(char *buf, double v)
{
    v = fabs(v);
    if (kn_rt_float_repr_hook) {
        int n = kn_rt_float_repr_hook(v, 'r', 0, 0, buf, 32);
        if (n > 0)
            return n;
    }
    if (isinf(v))
        return (int)(memcpy(buf, "inf", 3), 3);
    if (isnan(v))
        return (int)(memcpy(buf, "nan", 3), 3);
    if (v == 0)
        return (int)(memcpy(buf, "0.0", 3), 3);
    char d[20];
    int e, n = kn_rt_float_shortest(v, d, &e);
    return repr_layout(buf, d, n, e);
}

int
kn_rt_float_repr(KnStr *out, double v)
{
    char buf[40];
    int neg = signbit(v) && !isnan(v);
    buf[0] = '-';
    int n = repr_abs(buf + neg, v) + neg;
    return put_ascii(out, buf, n);
}

/* Python's 'g' (and the no-type form with a precision: add_dot, threshold one lower) of |v|,
 * finite, into a malloc'd string */
static char *
general_digits(double v, int64_t prec, int alt, int no_type, int64_t *len)
{
    if (prec == 0)
        prec = 1;
    int64_t cap = prec + 32;
    char *e = malloc((size_t)cap), *out = malloc((size_t)cap + 8);
    if (!e || !out) {
        free(e);
        free(out);
        return NULL;
    }
    snprintf(e, (size_t)cap, "%.*e", (int)(prec - 1), v);
    char *ep = strchr(e, 'e');
    int x = atoi(ep + 1);
    *ep = 0;
    char digits[1100];
    int64_t nd = 0;
    for (char *p = e; *p; p++)
        if (*p != '.' && nd < (int64_t)sizeof digits)
            digits[nd++] = *p;
    int use_exp = x < -4 || x >= (no_type ? prec - 1 : prec);
    if (!alt)
        while (nd > 1 && digits[nd - 1] == '0')
            nd--;
    int64_t k = 0;
    if (use_exp) {
        out[k++] = digits[0];
        if (nd > 1 || alt)
            out[k++] = '.';
        memcpy(out + k, digits + 1, (size_t)(nd - 1));
        k += nd - 1;
        k += snprintf(out + k, 8, "e%c%02d", x < 0 ? '-' : '+', abs(x));
    } else {
        int decpt = x + 1;
        if (decpt <= 0) {
            out[k++] = '0';
            out[k++] = '.';
            for (int i = 0; i < -decpt; i++)
                out[k++] = '0';
            memcpy(out + k, digits, (size_t)nd);
            k += nd;
        } else {
            for (int i = 0; i < decpt; i++)
                out[k++] = i < nd ? digits[i] : '0';
            if (nd > decpt || alt)
                out[k++] = '.';
            if (nd > decpt) {
                memcpy(out + k, digits + decpt, (size_t)(nd - decpt));
                k += nd - decpt;
            } else if (no_type) {
                if (!alt)
                    out[k++] = '.';
                out[k++] = '0';
            }
        }
    }
    free(e);
    *len = k;
    return out;
}

int
kn_rt_format_float(KnStr *out, double v, const KnFormatSpec *sp)
{
    int t = sp->type;
    if (t == 'n' && sp->grouping)
        return -3;
    if (t == 'n')
        t = 'g';
    if (t && !strchr("eEfFgG%", t))
        return -2;
    int neg = signbit(v) && !isnan(v);
    double a = fabs(v);
    int64_t prec = sp->precision < 0 ? 6 : sp->precision;
    if (prec > 1000)
        return -3; /* beyond what this formatter lays out (CPython allows more) */
    char *s = NULL;
    int64_t n = 0;
    char small[48];
    int upper = t == 'E' || t == 'F' || t == 'G';
    if (!isfinite(a)) {
        memcpy(small, isnan(a) ? "nan%" : "inf%", 4);
        n = 3 + (t == '%');
    } else if (!t && sp->precision < 0) {
        n = repr_abs(small, a);
        if (sp->alt && !memchr(small, '.', (size_t)n)) {
            /* repr with '#': keep the point ('1e+16' -> '1.e+16') */
            char *e = memchr(small, 'e', (size_t)n);
            if (e) {
                memmove(e + 1, e, (size_t)(small + n - e));
                *e = '.';
                n++;
            }
        }
    } else if (t == 'f' || t == 'F' || t == '%' || t == 'e' || t == 'E') {
        double x = t == '%' ? a * 100 : a;
        char fmt[8];
        snprintf(fmt, sizeof fmt, "%%%s.*%c", sp->alt ? "#" : "", t == '%' ? 'f' : (t | 0x20));
        int need = kn_rt_float_repr_hook
                       ? kn_rt_float_repr_hook(x, t == 'e' || t == 'E' ? 'e' : 'f', (int)prec,
                                               sp->alt, small, (int)sizeof small - 1)
                       : -1;
        if (need < 0)
            need = snprintf(small, sizeof small - 1, fmt, (int)prec, x);
        if (need < (int)sizeof small - 1) /* the common case: one call into the stack */
            n = need;
        else {
            s = malloc((size_t)need + 2);
            if (!s)
                return -1;
            snprintf(s, (size_t)need + 1, fmt, (int)prec, x);
            n = need;
        }
        if (t == '%')
            (s ? s : small)[n++] = '%';
    } else {
        s = general_digits(a, prec, sp->alt, !t, &n);
        if (!s)
            return -1;
    }
    const char *text = s ? s : small;
    if (sp->no_neg_0 && neg) { /* 'z': a result that rounds to zero loses its sign */
        int nonzero = 0;
        for (int64_t i = 0; i < n && text[i] != 'e'; i++)
            nonzero |= text[i] >= '1' && text[i] <= '9';
        if (!nonzero && isfinite(a))
            neg = 0;
    }
    int64_t ip = 0;
    while (ip < n && text[ip] >= '0' && text[ip] <= '9')
        ip++;
    if (!isfinite(a))
        ip = 0;
    Layout lo = {sign_char(neg, sp), "", text, ip, text + ip, n - ip, upper};
    if (!isfinite(a)) { /* inf/nan: no digits to group, all in the remainder */
        lo.digits = "";
        lo.rest = text;
    }
    int rc = emit_number(out, &lo, sp);
    free(s);
    return rc;
}

/* ---- strs ---- */
int
kn_rt_format_str(KnStr *out, const KnStr *s, const KnFormatSpec *sp)
{
    if (sp->type && sp->type != 's')
        return -2;
    if (sp->sign || sp->align == '=' || sp->alt || sp->grouping || sp->no_neg_0)
        return -3;
    int64_t n = s->length;
    if (sp->precision >= 0 && sp->precision < n)
        n = sp->precision;
    int64_t width = sp->width > n ? sp->width : n;
    if (width == s->length && n == s->length) {
        slib_same(out, s);
        return 0;
    }
    KnStr part;
    if (slib_sub(&part, s, 0, n))
        return -1;
    int align = sp->align == 0x100 || !sp->align ? '<' : sp->align;
    int64_t pad = width - n, left = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    int fk = pad ? slib_kind_for(sp->fill) : 1, k = part.kind > fk ? part.kind : fk;
    int rc = slib_alloc(out, width, k, part.ascii && (!pad || sp->fill < 128));
    if (!rc) {
        char *d = (char *)out->data;
        for (int64_t i = 0; i < left; i++)
            slib_write(k, d, i, sp->fill);
        slib_convert(d + left * k, k, part.data, part.kind, n);
        for (int64_t i = left + n; i < width; i++)
            slib_write(k, d, i, sp->fill);
    }
    slib_release(&part);
    return rc;
}

int
kn_rt_format_int_s(KnStr *out, int64_t v, const KnStr *spec)
{
    KnFormatSpec sp;
    return kn_rt_format_parse(&sp, spec) ? -2 : kn_rt_format_int(out, v, &sp);
}

int
kn_rt_format_uint_s(KnStr *out, uint64_t v, const KnStr *spec)
{
    KnFormatSpec sp;
    return kn_rt_format_parse(&sp, spec) ? -2 : kn_rt_format_uint(out, v, &sp);
}

int
kn_rt_format_float_s(KnStr *out, double v, const KnStr *spec)
{
    KnFormatSpec sp;
    return kn_rt_format_parse(&sp, spec) ? -2 : kn_rt_format_float(out, v, &sp);
}

int
kn_rt_format_str_s(KnStr *out, const KnStr *s, const KnStr *spec)
{
    KnFormatSpec sp;
    return kn_rt_format_parse(&sp, spec) ? -2 : kn_rt_format_str(out, s, &sp);
}

/* ---- repr of a str ---- */
static int
escape_len(uint32_t c, uint32_t quote, int ascii)
{
    if (ascii && c > 0x7E) /* ascii(): every non-ASCII character escaped */
        return c <= 0xFF ? 4 : c <= 0xFFFF ? 6 : 10;
    if (c == quote || c == '\\' || c == '\t' || c == '\n' || c == '\r')
        return 2;
    if (c < ' ' || c == 0x7F)
        return 4;
    if (c < 0x7F || (kn_uni_flags(c) & KN_UF_PRINTABLE))
        return 1;
    return c <= 0xFF ? 4 : c <= 0xFFFF ? 6 : 10;
}

/* repr(s), or ascii(s) (ascii: 1): the same with every non-ASCII character escaped */
static int
repr_of(KnStr *out, const KnStr *s, int ascii)
{
    int64_t nq1 = 0, nq2 = 0;
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        nq1 += c == '\'';
        nq2 += c == '"';
    }
    uint32_t quote = nq1 && !nq2 ? '"' : '\'';
    int64_t n = 2;
    uint32_t maxc = quote;
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        int l = escape_len(c, quote, ascii);
        n += l;
        if (l == 1 && c > maxc)
            maxc = c;
    }
    int k = slib_kind_for(maxc);
    if (slib_alloc(out, n, k, maxc < 128))
        return -1;
    void *d = (void *)out->data;
    int64_t w = 0;
    static const char hex[] = "0123456789abcdef";
    slib_write(k, d, w++, quote);
    for (int64_t i = 0; i < s->length; i++) {
        uint32_t c = slib_read(s->kind, s->data, i);
        int l = escape_len(c, quote, ascii);
        if (l == 1) {
            slib_write(k, d, w++, c);
            continue;
        }
        slib_write(k, d, w++, '\\');
        if (l == 2) {
            slib_write(k, d, w++, c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : c);
            continue;
        }
        slib_write(k, d, w++, l == 4 ? 'x' : l == 6 ? 'u' : 'U');
        for (int sh = (l - 2) * 4 - 4; sh >= 0; sh -= 4)
            slib_write(k, d, w++, (uint8_t)hex[(c >> sh) & 15]);
    }
    slib_write(k, d, w++, quote);
    return 0;
}

int
kn_rt_str_repr(KnStr *out, const KnStr *s)
{
    return repr_of(out, s, 0);
}

int
kn_rt_str_ascii(KnStr *out, const KnStr *s)
{
    return repr_of(out, s, 1);
}

int
kn_rt_str_build(KnStr *out, const KnStr *parts, int64_t n)
{
    KnStr sep;
    slib_empty(&sep);
    return kn_rt_str_join(out, &sep, parts, n);
}
