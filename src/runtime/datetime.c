/* datetime.c - the calendar conversions of np.datetime64 values (types/model_datetime.c):
 * months since 1970-01 to days since 1970-01-01 (the month's first day) and back (the month a
 * day falls in, floored), in the proleptic Gregorian calendar, as NumPy converts datetime64[M]
 * and [Y] to and from the linear units. */
#include "runtime/runtime.h"

/* days from 1970-01-01 to y-m-01 (Howard Hinnant's days_from_civil) */
static int64_t
days_from_civil(int64_t y, int64_t m)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int64_t
kn_rt_datetime_months_to_days(int64_t months)
{
    int64_t y = months >= 0 ? months / 12 : -((-months + 11) / 12);
    int64_t m = months - y * 12;
    return days_from_civil(1970 + y, m + 1);
}

int64_t
kn_rt_datetime_days_to_months(int64_t days)
{
    /* civil_from_days, then the month count */
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    return (y - 1970) * 12 + (m - 1);
}
