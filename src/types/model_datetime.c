/* model_datetime.c - the type model of np.datetime64 and np.timedelta64 values: an int64 count
 * of a unit (the type's id, NumPy's NPY_DATETIMEUNIT codes, KnTimeUnit), NaT being INT64_MIN,
 * printed `datetime64[s]` / `timedelta64[ms]` (`datetime64[generic]` without a unit), interned
 * by kind and unit. NumPy's unit rules: two units meet at the finer one; the calendar units Y and
 * M convert to each other (12 months a year) and, for datetimes only, to the linear units W..as
 * (by the calendar: a month's first day); a timedelta of years or months never meets a linear
 * unit. A variable assigned values of two units of one kind unifies to the common unit; a value
 * converts safely to a finer unit it can reach. */
#include "types/model.h"

#include <stdio.h>

static const char *const unit_names[] = {"Y",  "M",  "W",  NULL, "D",  "h",  "m",      "s",
                                         "ms", "us", "ns", "ps", "fs", "as", "generic"};

const char *
kn_type_time_unit_name(int unit)
{
    return unit >= 0 && unit < KN_ARRAY_LEN(unit_names) ? unit_names[unit] : NULL;
}

int
kn_type_time_unit_by_name(const char *name)
{
    for (int i = 0; name && i < KN_ARRAY_LEN(unit_names); i++)
        if (unit_names[i] && !strcmp(unit_names[i], name))
            return i;
    return -1;
}

KnType *
kn_type_datetime(KnTypeTable *t, int is_delta, int unit)
{
    const char *u = kn_type_time_unit_name(unit);
    if (!u)
        return NULL;
    char name[40];
    snprintf(name, sizeof name, "%s[%s]", is_delta ? "timedelta64" : "datetime64", u);
    KnType key = {.kind = is_delta ? KN_TY_TIMEDELTA : KN_TY_DATETIME,
                  .id = unit,
                  .bits = 64,
                  .is_signed = 1};
    return kn_type_intern(t, &key, name);
}

static int
is_calendar(int u)
{
    return u == KN_TU_Y || u == KN_TU_M;
}

int
kn_type_time_common(int a, int a_is_date, int b, int b_is_date)
{
    if (a == KN_TU_GENERIC)
        return b;
    if (b == KN_TU_GENERIC)
        return a;
    if (is_calendar(a) == is_calendar(b))
        return a > b ? a : b;
    /* one calendar unit, one linear: only a date converts by the calendar */
    if ((is_calendar(a) && !a_is_date) || (is_calendar(b) && !b_is_date))
        return -1;
    return is_calendar(a) ? b : a;
}

static size_t
datetime_size(const KnType *t)
{
    KN_UNUSED(t);
    return 8;
}

static KnType *
datetime_unify(KnTypeTable *tt, KnType *a, KnType *b)
{
    if (a->kind != b->kind)
        return NULL;
    int d = a->kind == KN_TY_DATETIME;
    int u = kn_type_time_common(a->id, d, b->id, d);
    return u < 0 ? NULL : kn_type_datetime(tt, !d, u);
}

static int
datetime_convert_safely(const KnType *from, const KnType *to)
{
    if (from->kind != to->kind)
        return 0;
    int d = from->kind == KN_TY_DATETIME;
    return kn_type_time_common(from->id, d, to->id, d) == to->id;
}

const KnTypeModel kn_type_model_datetime = {
    .size = datetime_size, .unify = datetime_unify, .convert_safely = datetime_convert_safely};
