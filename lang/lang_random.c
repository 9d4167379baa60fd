/* lang_random: Python's random module, CPython 3.11's sequences bit for bit.
 *
 * CPython's Random is a 32-bit Mersenne Twister (the same MT19937 as
 * PyTorch's, so the engine's nn_rng does the drawing) seeded by
 * init_by_array with the 32-bit words of the seed, and Python code on top
 * (random.py) that fixes how each function consumes the stream: random()
 * takes 27 + 26 bits of two draws, _randbelow(n) takes n.bit_length() bits
 * per try and retries above n, shuffle walks from the end, sample switches
 * between a pool and a set at the size CPython does, gauss keeps a spare.
 * Each is written here the way random.py writes it.
 *
 * The session's `random` is an instance of Random (the module's functions
 * are its methods, as in CPython); Random(seed) makes another. Limits:
 * nndb's ints are 64-bit, so seeds are ints of 64 bits, floats or strs,
 * and getrandbits(k) needs k <= 63. A str seed hashes with SHA-512 from
 * Debian's libcrypto, loaded when first needed.
 */
#include "lang_random.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "lang_eval.h"
#include "lang_vm.h"
#include "nn_rng.h"

typedef struct random_obj {
    lang_obj hdr;
    nn_rng mt;
    bool has_gauss;
    double gauss_next;
} random_obj;

#define R(self) ((random_obj *)(self).u.o)

/* ---- seeding: CPython's init_by_array ---- */

static void init_by_array(nn_rng *r, const uint32_t *key, size_t n) {
    nn_rng_seed(r, 19650218u); /* init_genrand(19650218) */
    uint32_t *mt = r->mt;
    size_t i = 1, j = 0;
    for (size_t k = NN_RNG_MT_N > n ? NN_RNG_MT_N : n; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= NN_RNG_MT_N) {
            mt[0] = mt[NN_RNG_MT_N - 1];
            i = 1;
        }
        if (j >= n) j = 0;
    }
    for (size_t k = NN_RNG_MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= NN_RNG_MT_N) {
            mt[0] = mt[NN_RNG_MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    r->left = 1; /* the first draw twists, as CPython's mti = N */
    r->next = 0;
}

static void seed_u64(random_obj *r, uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    init_by_array(&r->mt, key, key[1] ? 2 : 1);
    r->has_gauss = false;
}

/* CPython's hash of a float (Python/pyhash.c), which seed() uses for one. */
static uint64_t float_hash(double v) {
    const int bits = 61;
    const uint64_t mod = (1ULL << bits) - 1;
    if (isinf(v)) return v > 0 ? 314159u : (uint64_t)-314159;
    if (isnan(v)) return 0;
    int e;
    double m = frexp(v, &e);
    int sign = 1;
    if (m < 0) {
        sign = -1;
        m = -m;
    }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & mod) | x >> (bits - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= mod) x -= mod;
    }
    e = e >= 0 ? e % bits : bits - 1 - ((-1 - e) % bits);
    x = ((x << e) & mod) | x >> (bits - e);
    x = x * (uint64_t)(int64_t)sign;
    if (x == (uint64_t)-1) x = (uint64_t)-2;
    return x;
}

typedef unsigned char *(*sha512_fn)(const unsigned char *, size_t, unsigned char *);

/* seed(str), version 2: the int whose big-endian bytes are the UTF-8 text
 * followed by its SHA-512 digest. */
static bool seed_str(lang_vm *vm, random_obj *r, const char *s, size_t len) {
    static sha512_fn sha512;
    if (!sha512) {
        void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
        if (lib) sha512 = (sha512_fn)dlsym(lib, "SHA512");
        if (!sha512)
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "random.seed(str) needs SHA-512 from libcrypto.so.3 (Debian's "
                              "libssl3), which could not be loaded");
    }
    size_t n = len + 64;
    unsigned char *b = malloc(n);
    if (!b) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    memcpy(b, s, len);
    sha512((const unsigned char *)s, len, b + len);
    size_t lead = 0;
    while (lead < n && b[lead] == 0) lead++;
    size_t nbytes = n - lead, nwords = nbytes ? (nbytes + 3) / 4 : 1;
    uint32_t *key = calloc(nwords, sizeof *key);
    if (!key) {
        free(b);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < nbytes; i++) /* byte i from the least significant end */
        key[i / 4] |= (uint32_t)b[n - 1 - i] << (8 * (i % 4));
    init_by_array(&r->mt, key, nwords);
    r->has_gauss = false;
    free(key);
    free(b);
    return true;
}

static bool seed_value(lang_vm *vm, random_obj *r, lang_val a) {
    switch (a.kind) {
    case LANG_NONE: {
        uint32_t key[NN_RNG_MT_N];
        if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key)
            return lang_raise(vm, LANG_ERR_RUNTIME, "random.seed(): no randomness from the OS");
        init_by_array(&r->mt, key, NN_RNG_MT_N);
        r->has_gauss = false;
        return true;
    }
    case LANG_BOOL: seed_u64(r, a.u.b); return true;
    case LANG_INT: {
        uint64_t n = a.u.i < 0 ? 0 - (uint64_t)a.u.i : (uint64_t)a.u.i;
        seed_u64(r, n);
        return true;
    }
    case LANG_FLOAT: seed_u64(r, float_hash(a.u.f)); return true;
    case LANG_OBJ:
        if (lang_is_obj(a, &lang_str_type))
            return seed_str(vm, r, lang_str_cstr(a), strlen(lang_str_cstr(a)));
        break;
    }
    return lang_raise(vm, LANG_ERR_TYPE,
                      "The only supported seed types are: None, int, float and str (nndb has no "
                      "bytes), not %s",
                      lang_type_name(a));
}

/* ---- the draws random.py builds on ---- */

static double rand01(random_obj *r) {
    uint32_t a = nn_rng_next32(&r->mt) >> 5, b = nn_rng_next32(&r->mt) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

static uint64_t bits(random_obj *r, int k) { /* 0 <= k <= 64 */
    if (k == 0) return 0;
    if (k <= 32) return nn_rng_next32(&r->mt) >> (32 - k);
    uint64_t lo = nn_rng_next32(&r->mt);
    uint64_t hi = nn_rng_next32(&r->mt) >> (64 - k);
    return lo | hi << 32;
}

static int bit_length(uint64_t n) {
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

/* _randbelow_with_getrandbits: n > 0. */
static uint64_t below(random_obj *r, uint64_t n) {
    int k = bit_length(n);
    uint64_t x = bits(r, k);
    while (x >= n) x = bits(r, k);
    return x;
}

/* ---- sequences ---- */

static bool seq_len(lang_vm *vm, lang_val s, const char *fname, int64_t *n) {
    if (s.kind == LANG_OBJ && s.u.o->type->len && s.u.o->type->getitem &&
        !lang_is_obj(s, &lang_dict_type))
        return s.u.o->type->len(vm, s.u.o, n);
    return lang_raise(vm, LANG_ERR_TYPE,
                      "%s() needs a sequence (list, tuple, str or range), not %s; for dicts or "
                      "sets, use sorted(d)",
                      fname, lang_type_name(s));
}

static bool item(lang_vm *vm, lang_val s, int64_t i, lang_val *out) {
    return lang_getitem(vm, s, lang_int(i), out);
}

/* ---- methods ---- */

static bool m_seed(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v = lang_none(), ver = lang_int(2);
    if (!lang_parse_args(vm, a, "seed", "|a,version", &v, &ver)) return false;
    if (ver.kind != LANG_INT || ver.u.i != 2)
        return lang_raise(vm, LANG_ERR_VALUE, "random.seed(): nndb supports version=2 only");
    if (!seed_value(vm, R(self), v)) return false;
    *out = lang_none();
    return true;
}

static bool m_random(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "random", "")) return false;
    *out = lang_float(rand01(R(self)));
    return true;
}

static bool m_uniform(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val av, bv;
    double x, y;
    if (!lang_parse_args(vm, a, "uniform", "a,b", &av, &bv) || !lang_to_float(vm, av, "a", &x) ||
        !lang_to_float(vm, bv, "b", &y))
        return false;
    *out = lang_float(x + (y - x) * rand01(R(self)));
    return true;
}

static bool int_of(lang_vm *vm, lang_val v, const char *what, int64_t *out) {
    if (v.kind == LANG_FLOAT)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s: 'float' object cannot be interpreted as an integer", what);
    return lang_to_int(vm, v, what, out);
}

/* randrange(start, stop, step) with stop given (or not: [0, start)). */
static bool randrange(lang_vm *vm, random_obj *r, int64_t start, bool has_stop, int64_t stop,
                      int64_t step, lang_val *out) {
    if (!has_stop) {
        if (start > 0) {
            *out = lang_int((int64_t)below(r, (uint64_t)start));
            return true;
        }
        return lang_raise(vm, LANG_ERR_VALUE, "empty range for randrange()");
    }
    int64_t width = stop - start;
    if (step == 1) {
        if (width > 0) {
            *out = lang_int(start + (int64_t)below(r, (uint64_t)width));
            return true;
        }
        return lang_raise(vm, LANG_ERR_VALUE, "empty range for randrange() (%lld, %lld, %lld)",
                          (long long)start, (long long)stop, (long long)width);
    }
    if (step == 0) return lang_raise(vm, LANG_ERR_VALUE, "zero step for randrange()");
    /* Python's floor division */
    int64_t num = step > 0 ? width + step - 1 : width + step + 1;
    int64_t n = num / step - ((num % step != 0) && ((num < 0) != (step < 0)));
    if (n <= 0) return lang_raise(vm, LANG_ERR_VALUE, "empty range for randrange()");
    *out = lang_int(start + step * (int64_t)below(r, (uint64_t)n));
    return true;
}

static bool m_randrange(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val sv, ev = lang_none(), stv = lang_none();
    int64_t s, e = 0, st = 1;
    if (!lang_parse_args(vm, a, "randrange", "start|stop,step", &sv, &ev, &stv) ||
        !int_of(vm, sv, "randrange()", &s))
        return false;
    if (ev.kind == LANG_NONE && stv.kind != LANG_NONE)
        return lang_raise(vm, LANG_ERR_TYPE, "Missing a non-None stop argument");
    if (ev.kind != LANG_NONE && !int_of(vm, ev, "randrange()", &e)) return false;
    if (stv.kind != LANG_NONE && !int_of(vm, stv, "randrange()", &st)) return false;
    return randrange(vm, R(self), s, ev.kind != LANG_NONE, e, st, out);
}

static bool m_randint(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val av, bv;
    int64_t x, y;
    if (!lang_parse_args(vm, a, "randint", "a,b", &av, &bv) || !int_of(vm, av, "randint()", &x) ||
        !int_of(vm, bv, "randint()", &y))
        return false;
    return randrange(vm, R(self), x, true, y + 1, 1, out);
}

static bool m_getrandbits(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val kv;
    int64_t k;
    if (!lang_parse_args(vm, a, "getrandbits", "k", &kv) || !int_of(vm, kv, "getrandbits()", &k))
        return false;
    if (k < 0) return lang_raise(vm, LANG_ERR_VALUE, "number of bits must be non-negative");
    if (k > 63)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "getrandbits(%lld): nndb's ints are 64-bit, so k must be <= 63",
                          (long long)k);
    *out = lang_int((int64_t)bits(R(self), (int)k));
    return true;
}

static bool m_choice(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val s;
    int64_t n;
    if (!lang_parse_args(vm, a, "choice", "seq", &s) || !seq_len(vm, s, "choice", &n)) return false;
    if (!n) return lang_raise(vm, LANG_ERR_INDEX, "Cannot choose from an empty sequence");
    return item(vm, s, (int64_t)below(R(self), (uint64_t)n), out);
}

static bool m_shuffle(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "shuffle", "x", &x)) return false;
    if (!lang_is_obj(x, &lang_list_type))
        return lang_raise(vm, LANG_ERR_TYPE, "shuffle() needs a list (shuffled in place), not %s",
                          lang_type_name(x));
    int64_t n = lang_seq_len(x);
    lang_val *it = lang_seq_items(x);
    for (int64_t i = n - 1; i >= 1; i--) {
        int64_t j = (int64_t)below(R(self), (uint64_t)i + 1);
        lang_val t = it[i];
        it[i] = it[j];
        it[j] = t;
    }
    *out = lang_none();
    return true;
}

/* A set of int64 (open addressing) for sample's large-population path. */
typedef struct iset {
    int64_t *slot;
    size_t cap, n;
} iset;

static bool iset_has_add(iset *s, int64_t v, bool *had) {
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        int64_t *grown = malloc(cap * sizeof *grown);
        if (!grown) return false;
        for (size_t i = 0; i < cap; i++) grown[i] = -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i] >= 0) {
                size_t h = (size_t)((uint64_t)s->slot[i] * 0x9e3779b97f4a7c15ULL) & (cap - 1);
                while (grown[h] >= 0) h = (h + 1) & (cap - 1);
                grown[h] = s->slot[i];
            }
        free(s->slot);
        s->slot = grown;
        s->cap = cap;
    }
    size_t h = (size_t)((uint64_t)v * 0x9e3779b97f4a7c15ULL) & (s->cap - 1);
    while (s->slot[h] >= 0) {
        if (s->slot[h] == v) {
            *had = true;
            return true;
        }
        h = (h + 1) & (s->cap - 1);
    }
    s->slot[h] = v;
    s->n++;
    *had = false;
    return true;
}

/* random.py's sample on indices 0..n-1: k of them in selection order. */
static bool sample_indices(lang_vm *vm, random_obj *r, int64_t n, int64_t k, int64_t *idx) {
    int64_t setsize = 21;
    if (k > 5) setsize += (int64_t)pow(4.0, ceil(log((double)(k * 3)) / log(4.0)));
    if (n <= setsize) {
        int64_t *pool = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        if (!pool) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int64_t i = 0; i < n; i++) pool[i] = i;
        for (int64_t i = 0; i < k; i++) {
            int64_t j = (int64_t)below(r, (uint64_t)(n - i));
            idx[i] = pool[j];
            pool[j] = pool[n - i - 1];
        }
        free(pool);
        return true;
    }
    iset s = {0};
    for (int64_t i = 0; i < k; i++) {
        int64_t j = 0;
        bool had = true;
        while (had) {
            j = (int64_t)below(r, (uint64_t)n);
            if (!iset_has_add(&s, j, &had)) {
                free(s.slot);
                return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
            }
        }
        idx[i] = j;
    }
    free(s.slot);
    return true;
}

static bool m_sample(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val pop, kv, cv = lang_none();
    int64_t n, k;
    if (!lang_parse_args(vm, a, "sample", "population,k|counts", &pop, &kv, &cv) ||
        !seq_len(vm, pop, "sample", &n) || !int_of(vm, kv, "sample()", &k))
        return false;
    int64_t *cum = NULL, total = n;
    if (cv.kind != LANG_NONE) {
        int64_t m;
        if (!seq_len(vm, cv, "sample", &m)) return false;
        if (m != n)
            return lang_raise(vm, LANG_ERR_VALUE,
                              "The number of counts does not match the population");
        cum = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        if (!cum) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        int64_t acc = 0;
        for (int64_t i = 0; i < n; i++) {
            lang_val c;
            int64_t ci;
            bool ok = item(vm, cv, i, &c);
            ok = ok && (c.kind == LANG_INT || c.kind == LANG_BOOL ||
                        lang_raise(vm, LANG_ERR_TYPE, "Counts must be integers"));
            ok = ok && lang_to_int(vm, c, "count", &ci);
            lang_val_release(c);
            if (!ok) {
                free(cum);
                return false;
            }
            cum[i] = acc += ci;
        }
        total = n ? cum[n - 1] : 0;
        if (total <= 0) {
            free(cum);
            return lang_raise(vm, LANG_ERR_VALUE, "Total of counts must be greater than zero");
        }
    }
    if (!(k >= 0 && k <= total)) {
        free(cum);
        return lang_raise(vm, LANG_ERR_VALUE, "Sample larger than population or is negative");
    }
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)(k ? k : 1));
    bool ok = idx && sample_indices(vm, R(self), total, k, idx);
    if (!idx) lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    ok = ok && lang_list_new(vm, k, out);
    for (int64_t i = 0; ok && i < k; i++) {
        int64_t j = idx[i];
        if (cum) { /* bisect_right(cum_counts[:-1], j) */
            int64_t lo = 0, hi = n - 1;
            while (lo < hi) {
                int64_t mid = (lo + hi) / 2;
                if (j < cum[mid])
                    hi = mid;
                else
                    lo = mid + 1;
            }
            j = lo;
        }
        ok = item(vm, pop, j, &lang_seq_items(*out)[i]);
    }
    if (!ok && out->kind == LANG_OBJ) lang_val_release(*out);
    free(idx);
    free(cum);
    return ok;
}

static bool m_choices(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val pop, wv = lang_none(), cwv = lang_none(), kv = lang_int(1);
    int64_t n, k;
    if (!lang_parse_args(vm, a, "choices", "population|weights,cum_weights,k", &pop, &wv, &cwv,
                         &kv) ||
        !seq_len(vm, pop, "choices", &n) || !int_of(vm, kv, "choices()", &k))
        return false;
    if (a->n > 2)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "The number of choices must be a keyword argument: k=");
    random_obj *r = R(self);
    if (k < 0) k = 0;
    if (!lang_list_new(vm, k, out)) return false;
    lang_val *res = lang_seq_items(*out);
    if (wv.kind == LANG_NONE && cwv.kind == LANG_NONE) {
        double nf = (double)n;
        for (int64_t i = 0; i < k; i++)
            if (!item(vm, pop, (int64_t)floor(rand01(r) * nf), &res[i])) goto fail;
        return true;
    }
    if (wv.kind != LANG_NONE && cwv.kind != LANG_NONE) {
        lang_raise(vm, LANG_ERR_TYPE, "Cannot specify both weights and cumulative weights");
        goto fail;
    }
    lang_val src = wv.kind != LANG_NONE ? wv : cwv;
    int64_t m;
    if (!seq_len(vm, src, "choices", &m)) goto fail;
    if (m != n) {
        lang_raise(vm, LANG_ERR_VALUE, "The number of weights does not match the population");
        goto fail;
    }
    double *cum = malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!cum) {
        lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        goto fail;
    }
    /* itertools.accumulate: ints add exactly, a float makes the rest float. */
    int64_t iacc = 0;
    double facc = 0;
    bool is_float = false;
    for (int64_t i = 0; i < n; i++) {
        lang_val w;
        if (!item(vm, src, i, &w)) goto fail_cum;
        double wf;
        bool num = w.kind == LANG_INT || w.kind == LANG_BOOL || w.kind == LANG_FLOAT;
        if (!num || !lang_to_float(vm, w, "weight", &wf)) {
            if (!num)
                lang_raise(vm, LANG_ERR_TYPE, "weights must be numbers, not %s", lang_type_name(w));
            lang_val_release(w);
            goto fail_cum;
        }
        if (wv.kind != LANG_NONE) {
            if (w.kind == LANG_FLOAT && !is_float) {
                is_float = true;
                facc = (double)iacc;
            }
            if (is_float)
                facc += wf;
            else
                iacc += w.kind == LANG_BOOL ? w.u.b : w.u.i;
            cum[i] = is_float ? facc : (double)iacc;
        } else {
            cum[i] = wf;
        }
        lang_val_release(w);
    }
    double total = n ? cum[n - 1] + 0.0 : 0.0;
    if (!(total > 0.0)) {
        if (n)
            lang_raise(vm, LANG_ERR_VALUE, "Total of weights must be greater than zero");
        else
            lang_raise(vm, LANG_ERR_INDEX, "list index out of range");
        goto fail_cum;
    }
    if (!isfinite(total)) {
        lang_raise(vm, LANG_ERR_VALUE, "Total of weights must be finite");
        goto fail_cum;
    }
    for (int64_t i = 0; i < k; i++) {
        double x = rand01(r) * total;
        int64_t lo = 0, hi = n - 1;
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (x < cum[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        if (!item(vm, pop, lo, &res[i])) goto fail_cum;
    }
    free(cum);
    return true;
fail_cum:
    free(cum);
fail:
    lang_val_release(*out);
    return false;
}

static bool m_gauss(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val mv = lang_float(0), sv = lang_float(1);
    double mu, sigma;
    if (!lang_parse_args(vm, a, "gauss", "|mu,sigma", &mv, &sv) ||
        !lang_to_float(vm, mv, "mu", &mu) || !lang_to_float(vm, sv, "sigma", &sigma))
        return false;
    random_obj *r = R(self);
    double z;
    if (r->has_gauss) {
        z = r->gauss_next;
        r->has_gauss = false;
    } else {
        double x2pi = rand01(r) * 6.283185307179586;
        double g2rad = sqrt(-2.0 * log(1.0 - rand01(r)));
        z = cos(x2pi) * g2rad;
        r->gauss_next = sin(x2pi) * g2rad;
        r->has_gauss = true;
    }
    *out = lang_float(mu + z * sigma);
    return true;
}

static bool m_normalvariate(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val mv = lang_float(0), sv = lang_float(1);
    double mu, sigma, z;
    if (!lang_parse_args(vm, a, "normalvariate", "|mu,sigma", &mv, &sv) ||
        !lang_to_float(vm, mv, "mu", &mu) || !lang_to_float(vm, sv, "sigma", &sigma))
        return false;
    const double magic = 4 * exp(-0.5) / sqrt(2.0);
    random_obj *r = R(self);
    for (;;) {
        double u1 = rand01(r), u2 = 1.0 - rand01(r);
        z = magic * (u1 - 0.5) / u2;
        if (z * z / 4.0 <= -log(u2)) break;
    }
    *out = lang_float(mu + z * sigma);
    return true;
}

/* getstate(): (3, (mt[0], ..., mt[623], index), gauss_next or None). */
static bool m_getstate(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "getstate", "")) return false;
    random_obj *r = R(self);
    lang_val words, st[3];
    if (!lang_tuple_new(vm, NN_RNG_MT_N + 1, &words)) return false;
    lang_val *w = lang_seq_items(words);
    for (int i = 0; i < NN_RNG_MT_N; i++) w[i] = lang_int(r->mt.mt[i]);
    w[NN_RNG_MT_N] = lang_int(NN_RNG_MT_N + 1 - r->mt.left);
    st[0] = lang_int(3);
    st[1] = words;
    st[2] = r->has_gauss ? lang_float(r->gauss_next) : lang_none();
    bool ok = lang_tuple_pack(vm, 3, st, out);
    lang_val_release(words);
    return ok;
}

static bool m_setstate(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val st;
    if (!lang_parse_args(vm, a, "setstate", "state", &st)) return false;
    if (!lang_is_obj(st, &lang_tuple_type) || lang_seq_len(st) != 3)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "setstate() needs what getstate() returned, a 3-tuple");
    lang_val *f = lang_seq_items(st);
    if (f[0].kind != LANG_INT || f[0].u.i != 3)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "state with version %s passed to Random.setstate() of version 3",
                          f[0].kind == LANG_INT ? "other" : "non-int");
    if (!lang_is_obj(f[1], &lang_tuple_type) || lang_seq_len(f[1]) != NN_RNG_MT_N + 1)
        return lang_raise(vm, LANG_ERR_VALUE, "state vector is the wrong size");
    lang_val *w = lang_seq_items(f[1]);
    nn_rng mt = R(self)->mt;
    for (int i = 0; i <= NN_RNG_MT_N; i++) {
        if (w[i].kind != LANG_INT || w[i].u.i < 0 || w[i].u.i > 0xffffffffLL)
            return lang_raise(vm, LANG_ERR_VALUE, "state vector items must be 32-bit ints");
        if (i < NN_RNG_MT_N) mt.mt[i] = (uint32_t)w[i].u.i;
    }
    int64_t index = w[NN_RNG_MT_N].u.i;
    if (index > NN_RNG_MT_N) return lang_raise(vm, LANG_ERR_VALUE, "invalid state");
    double g = 0;
    if (f[2].kind != LANG_NONE && !lang_to_float(vm, f[2], "gauss_next", &g)) return false;
    mt.left = NN_RNG_MT_N + 1 - (int32_t)index;
    mt.next = (uint32_t)index;
    random_obj *r = R(self);
    r->mt = mt;
    r->has_gauss = f[2].kind != LANG_NONE;
    r->gauss_next = g;
    *out = lang_none();
    return true;
}

static bool b_random_new(lang_vm *vm, const lang_args *a, lang_val *out);

static bool m_random_class(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return b_random_new(vm, a, out);
}

#define M(n, f, sig, doc, ex)                                                                      \
    {                                                                                              \
        n, f, {                                                                                    \
            "random." n, sig, doc, ex                                                              \
        }                                                                                          \
    }
static const lang_method random_methods[] = {
    M("seed", m_seed, "seed(a=None, version=2)",
      "Seed the generator as CPython does: an int (its absolute value), a float (its hash), a "
      "str (with SHA-512), or None (the OS's randomness).",
      "random.seed(42)"),
    M("random", m_random, "random()", "A float in [0, 1) with 53 random bits.", "random.random()"),
    M("uniform", m_uniform, "uniform(a, b)", "a + (b - a) * random().", "random.uniform(-1, 1)"),
    M("randint", m_randint, "randint(a, b)", "An int in [a, b], both ends included.",
      "random.randint(1, 6)"),
    M("randrange", m_randrange, "randrange(start, stop=None, step=1)",
      "An int from range(start, stop, step).", "random.randrange(0, 10, 2)"),
    M("choice", m_choice, "choice(seq)", "One item of a non-empty sequence.",
      "random.choice(['a', 'b', 'c'])"),
    M("choices", m_choices, "choices(population, weights=None, *, cum_weights=None, k=1)",
      "k items chosen with replacement, optionally weighted.",
      "random.choices('abc', weights=[5, 1, 1], k=4)"),
    M("shuffle", m_shuffle, "shuffle(x)", "Shuffle a list in place.", "random.shuffle(words)"),
    M("sample", m_sample, "sample(population, k, *, counts=None)",
      "k distinct items (by position), in selection order.", "random.sample(range(100), 5)"),
    M("gauss", m_gauss, "gauss(mu=0.0, sigma=1.0)",
      "A normal variate by Box-Muller, keeping the second value for the next call.",
      "random.gauss(0, 1)"),
    M("normalvariate", m_normalvariate, "normalvariate(mu=0.0, sigma=1.0)",
      "A normal variate by Kinderman and Monahan's ratio method.", "random.normalvariate()"),
    M("getrandbits", m_getrandbits, "getrandbits(k)", "An int with k random bits (k <= 63 here).",
      "random.getrandbits(8)"),
    M("getstate", m_getstate, "getstate()",
      "The generator's state, as CPython's: (3, 625 ints, gauss_next).", "s = random.getstate()"),
    M("setstate", m_setstate, "setstate(state)", "Restore a state getstate() returned.",
      "random.setstate(s)"),
    M("Random", m_random_class, "Random(x=None)",
      "A generator of its own with the same methods, seeded with x.", "r = random.Random(0)"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool random_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<random.Random object at %p>", (void *)o);
    return true;
}

static const lang_help random_help = {
    "random", "random",
    "Python's random module: the same numbers as CPython 3.11 for the same seed (seed, random, "
    "uniform, randint, randrange, choice, choices, shuffle, sample, gauss, normalvariate, "
    "getrandbits, getstate, setstate, Random).",
    "random.seed(42); random.shuffle(words)"};

const lang_type lang_random_type = {
    .name = "Random",
    .repr = random_repr,
    .methods = random_methods,
    .help = &random_help,
};

static bool random_new(lang_vm *vm, lang_val seed, lang_val *out) {
    random_obj *r = lang_obj_new(vm, &lang_random_type, sizeof *r);
    if (!r) return false;
    *out = lang_obj_val(&r->hdr);
    if (!seed_value(vm, r, seed)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool b_random_new(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none();
    if (!lang_parse_args(vm, a, "Random", "|x", &x)) return false;
    return random_new(vm, x, out);
}

bool lang_random_install(lang_vm *vm) {
    lang_val r;
    if (!random_new(vm, lang_none(), &r)) return false;
    bool ok = lang_vm_set_builtin(vm, "random", r);
    lang_val_release(r);
    return ok;
}
