/* check.h - the few macros the C unit tests share: CHECK, CHECK_EQ_INT and CHECK_STR count
 * checks and print file:line for each failure; a test program returns failures != 0. */
#ifndef KN_TEST_CHECK_H
#define KN_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        checks++;                                                                                  \
        if (va_ != vb_) {                                                                          \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n", __FILE__, __LINE__,  \
                    #a, #b, va_, vb_);                                                             \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *sa_ = (a), *sb_ = (b);                                                         \
        checks++;                                                                                  \
        if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) {                                               \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s == \"%s\" (got \"%s\")\n", __FILE__,          \
                    __LINE__, #a, sb_ ? sb_ : "(null)", sa_ ? sa_ : "(null)");                     \
        }                                                                                          \
    } while (0)

#endif
