/* nn_buf's text helpers: the UTF-8 check the session and the checkpoint
 * reader use, and the base64 codec of the kernel's pictures and the REPL's
 * saved figures. */
#include <stdlib.h>
#include <string.h>

#include "nn_buf.h"
#include "testutil.h"

NN_TEST(buf_utf8_valid) {
    CHECK(nn_utf8_valid("", 0));
    CHECK(nn_utf8_valid("plain ascii", 11));
    CHECK(nn_utf8_valid("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x99\x82", 15));
    CHECK(!nn_utf8_valid("\xff", 1));             /* never a UTF-8 byte */
    CHECK(!nn_utf8_valid("\xc3", 1));             /* cut short */
    CHECK(!nn_utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
    CHECK(!nn_utf8_valid("\xed\xa0\x80", 3));     /* a surrogate */
    CHECK(!nn_utf8_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
    CHECK(nn_utf8_len((const unsigned char *)"\xe2\x82\xac", 3) == 3);
}

NN_TEST(buf_base64_round_trip) {
    /* RFC 4648's test vectors */
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const coded[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                                        "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char *e = nn_base64_encode((const unsigned char *)plain[i], strlen(plain[i]));
        CHECK_MSG(e && !strcmp(e, coded[i]), "%s -> %s", plain[i], e ? e : "NULL");
        size_t n = 99;
        unsigned char *d = nn_base64_decode(coded[i], &n);
        CHECK_MSG(d && n == strlen(plain[i]) && !memcmp(d, plain[i], n), "%s", coded[i]);
        free(e);
        free(d);
    }
    unsigned char all[256];
    for (int i = 0; i < 256; i++) all[i] = (unsigned char)i;
    char *e = nn_base64_encode(all, sizeof all);
    size_t n = 0;
    unsigned char *d = e ? nn_base64_decode(e, &n) : NULL;
    CHECK(d && n == 256 && !memcmp(d, all, 256));
    free(e);
    free(d);
    /* line breaks are skipped; anything else outside the alphabet fails */
    d = nn_base64_decode("Zm9v\nYmFy\r\n", &n);
    CHECK(d && n == 6 && !memcmp(d, "foobar", 6));
    free(d);
    CHECK(nn_base64_decode("Zm9v*", &n) == NULL);
}
