/* lang_generator: torch.Generator values and torch's random-state builtins.
 * See lang_generator.h. */
#include "lang_generator.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "lang_builtins.h"
#include "lang_tensor.h"
#include "lang_vm.h"
#include "nn_random.h"

typedef struct gen_obj {
    lang_obj hdr;
    bool is_default; /* stands for lang_vm_ctx(vm)->rng */
    nn_rng own;
} gen_obj;

static nn_rng *rng_of(lang_vm *vm, gen_obj *g) {
    return g->is_default ? &lang_vm_ctx(vm)->rng : &g->own;
}

static bool gen_new(lang_vm *vm, bool is_default, lang_val *out) {
    gen_obj *g = lang_obj_new(vm, &lang_generator_type, sizeof *g);
    if (!g) return false;
    g->is_default = is_default;
    nn_rng_seed(&g->own, NN_RNG_DEFAULT_SEED);
    *out = lang_obj_val(&g->hdr);
    return true;
}

bool lang_generator_arg(lang_vm *vm, lang_val v, const char *fname, nn_rng **out) {
    *out = NULL;
    if (v.kind == LANG_NONE) return true;
    if (!lang_is_obj(v, &lang_generator_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): generator must be a torch.Generator, not %s",
                          fname, lang_type_name(v));
    gen_obj *g = (gen_obj *)v.u.o;
    if (!g->is_default) *out = &g->own;
    return true;
}

/* A seed as torch takes it: any int; a negative one is its two's complement. */
static bool seed_arg(lang_vm *vm, const lang_args *a, const char *fname, uint64_t *out) {
    lang_val s;
    int64_t v;
    if (!lang_parse_args(vm, a, fname, "seed", &s) || !lang_to_int(vm, s, "seed", &v)) return false;
    *out = (uint64_t)v;
    return true;
}

/* A fresh seed from the operating system, as torch's seed() (63 bits here,
 * so that it is a non-negative int of the language). */
static bool os_seed(lang_vm *vm, uint64_t *out) {
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s)
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "seed(): the operating system gave no random bytes");
    *out = s >> 1;
    return true;
}

static bool state_tensor(lang_vm *vm, nn_rng *rng, lang_val *out) {
    uint8_t st[NN_RNG_STATE_BYTES];
    nn_rng_get_state(rng, st);
    int64_t n = NN_RNG_STATE_BYTES;
    nn_tensor *t = nn_tensor_from_data(lang_vm_ctx(vm), NN_UINT8, 1, &n, st); /* as torch */
    if (!t) return lang_raise_engine(vm);
    return lang_tensor_new(vm, t, out);
}

static bool set_state_from(lang_vm *vm, nn_rng *rng, lang_val v, const char *fname) {
    nn_tensor *t = lang_tensor_of(v);
    if (!t)
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): the state must be a tensor, not %s", fname,
                          lang_type_name(v));
    int64_t n = nn_tensor_numel(t);
    if (n != NN_RNG_STATE_BYTES)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "%s(): the state must hold %d bytes (what get_state() returns), got %lld "
                          "elements",
                          fname, NN_RNG_STATE_BYTES, (long long)n);
    uint8_t st[NN_RNG_STATE_BYTES];
    for (int64_t i = 0; i < n; i++) {
        double b = nn_tensor_get_flat(t, i);
        if (!(b >= 0 && b <= 255) || b != (double)(int)b)
            return lang_raise(vm, LANG_ERR_VALUE, "%s(): element %lld of the state is not a byte",
                              fname, (long long)i);
        st[i] = (uint8_t)b;
    }
    if (!nn_rng_set_state(rng, st, sizeof st))
        return lang_raise(vm, LANG_ERR_VALUE,
                          "%s(): the provided generator state is invalid (its 'left' or 'next' "
                          "field is out of range)",
                          fname);
    return true;
}

/* ---- methods ---- */

#define GEN(self) ((gen_obj *)(self).u.o)

static bool m_manual_seed(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    uint64_t s;
    if (!seed_arg(vm, a, "manual_seed", &s)) return false;
    nn_rng_seed(rng_of(vm, GEN(self)), s);
    *out = lang_val_retain(self);
    return true;
}

static bool m_initial_seed(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "initial_seed", "")) return false;
    *out = lang_int((int64_t)rng_of(vm, GEN(self))->seed);
    return true;
}

static bool m_seed(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    uint64_t s = 0;
    if (!lang_parse_args(vm, a, "seed", "") || !os_seed(vm, &s)) return false;
    nn_rng_seed(rng_of(vm, GEN(self)), s);
    *out = lang_int((int64_t)s);
    return true;
}

static bool m_get_state(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "get_state", "")) return false;
    return state_tensor(vm, rng_of(vm, GEN(self)), out);
}

static bool m_set_state(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v;
    if (!lang_parse_args(vm, a, "set_state", "new_state", &v) ||
        !set_state_from(vm, rng_of(vm, GEN(self)), v, "set_state"))
        return false;
    *out = lang_val_retain(self);
    return true;
}

static const lang_method gen_methods[] = {
    {"manual_seed",
     m_manual_seed,
     {"Generator.manual_seed", "manual_seed(seed)",
      "Seed this generator (PyTorch's Mersenne Twister); returns the generator, so "
      "Generator().manual_seed(42) is a seeded one.",
      "g = Generator().manual_seed(2147483647)"}},
    {"initial_seed",
     m_initial_seed,
     {"Generator.initial_seed", "initial_seed()", "The seed this generator was last seeded with.",
      "g.initial_seed()"}},
    {"seed",
     m_seed,
     {"Generator.seed", "seed()",
      "Seed this generator from the operating system's randomness; returns the seed.", "g.seed()"}},
    {"get_state",
     m_get_state,
     {"Generator.get_state", "get_state()",
      "The generator's state: PyTorch's 5056 bytes (as an int64 tensor of byte values).",
      "s = g.get_state()"}},
    {"set_state",
     m_set_state,
     {"Generator.set_state", "set_state(new_state)",
      "Restore a state get_state() returned (from nndb or from torch); returns the generator.",
      "g.set_state(s)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool gen_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<torch._C.Generator object at %p>", (void *)o);
    return true;
}

static bool gen_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    *found = !strcmp(name, "device");
    return !*found || lang_str_new(vm, "cpu", 3, out);
}

static const char *const gen_fields[] = {"device", NULL};
static const char *const *gen_field_names(lang_obj *o) {
    return gen_fields;
}

static const lang_help gen_help = {
    "Generator", "Generator(device='cpu')",
    "A random generator of its own, PyTorch's CPU one: seeded with manual_seed, passed as "
    "generator= to rand, randn, randint, randperm, multinomial, bernoulli, normal_ and "
    "uniform_, it gives the numbers torch gives for the same seed.",
    "g = Generator().manual_seed(2147483647)"};

const lang_type lang_generator_type = {
    .name = "Generator",
    .repr = gen_repr,
    .getattr = gen_getattr,
    .fields = gen_field_names,
    .methods = gen_methods,
    .help = &gen_help,
};

/* ---- builtins ---- */

static bool b_generator(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val dev = lang_none();
    if (!lang_parse_args(vm, a, "Generator", "|device", &dev)) return false;
    if (dev.kind != LANG_NONE &&
        !(lang_is_obj(dev, &lang_str_type) && !strcmp(lang_str_cstr(dev), "cpu")))
        return lang_raise(vm, LANG_ERR_VALUE, "Generator(): nndb's generators are on the cpu");
    return gen_new(vm, false, out);
}

static bool b_manual_seed(lang_vm *vm, const lang_args *a, lang_val *out) {
    uint64_t s;
    if (!seed_arg(vm, a, "manual_seed", &s)) return false;
    nn_ctx_seed(lang_vm_ctx(vm), s);
    return gen_new(vm, true, out);
}

static bool b_initial_seed(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "initial_seed", "")) return false;
    *out = lang_int((int64_t)lang_vm_ctx(vm)->rng.seed);
    return true;
}

static bool b_seed(lang_vm *vm, const lang_args *a, lang_val *out) {
    uint64_t s = 0;
    if (!lang_parse_args(vm, a, "seed", "") || !os_seed(vm, &s)) return false;
    nn_ctx_seed(lang_vm_ctx(vm), s);
    *out = lang_int((int64_t)s);
    return true;
}

static bool b_get_rng_state(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "get_rng_state", "")) return false;
    return state_tensor(vm, &lang_vm_ctx(vm)->rng, out);
}

static bool b_set_rng_state(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v;
    if (!lang_parse_args(vm, a, "set_rng_state", "new_state", &v) ||
        !set_state_from(vm, &lang_vm_ctx(vm)->rng, v, "set_rng_state"))
        return false;
    *out = lang_none();
    return true;
}

static bool finish(lang_vm *vm, nn_tensor *t, lang_val *out) {
    if (!t) return lang_raise_engine(vm);
    return lang_tensor_new(vm, t, out);
}

static bool b_randperm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv, gv = lang_none(), dtv = lang_none(), rg = lang_none(), dev = lang_none();
    if (!lang_parse_args(vm, a, "randperm", "n|generator,dtype,requires_grad,device", &nv, &gv,
                         &dtv, &rg, &dev))
        return false;
    int64_t n;
    nn_rng *g;
    nn_dtype dt = NN_INT64;
    if (!lang_to_int(vm, nv, "n", &n) || !lang_generator_arg(vm, gv, "randperm", &g) ||
        (dtv.kind != LANG_NONE && !lang_dtype_from(vm, dtv, "dtype", &dt)))
        return false;
    return finish(vm, nn_randperm(lang_vm_ctx(vm), g, n, dt), out);
}

static bool b_multinomial(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val iv, nv, rv = lang_bool(false), gv = lang_none();
    if (!lang_parse_args(vm, a, "multinomial", "input,num_samples|replacement,generator", &iv, &nv,
                         &rv, &gv))
        return false;
    nn_tensor *p;
    int64_t n;
    bool repl;
    nn_rng *g;
    if (!lang_to_tensor(vm, iv, "input", &p)) return false;
    bool ok = lang_to_int(vm, nv, "num_samples", &n) &&
              lang_to_bool(vm, rv, "replacement", &repl) &&
              lang_generator_arg(vm, gv, "multinomial", &g);
    nn_tensor *r = ok ? nn_multinomial(lang_vm_ctx(vm), p, n, repl, g) : NULL;
    nn_tensor_release(p);
    return ok && finish(vm, r, out);
}

/* bernoulli(input) draws with probabilities input; bernoulli(input, p)
 * fills a tensor shaped like input with probability p (torch's two forms). */
static bool b_bernoulli(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val iv, pv = lang_none(), gv = lang_none();
    if (!lang_parse_args(vm, a, "bernoulli", "input|p,generator", &iv, &pv, &gv)) return false;
    nn_tensor *p;
    nn_rng *g;
    double pf = 0;
    if (!lang_to_tensor(vm, iv, "input", &p)) return false;
    bool ok = lang_generator_arg(vm, gv, "bernoulli", &g) &&
              (pv.kind == LANG_NONE || lang_to_float(vm, pv, "p", &pf));
    nn_tensor *r = NULL;
    if (ok && pv.kind == LANG_NONE) {
        r = nn_bernoulli(lang_vm_ctx(vm), p, g);
    } else if (ok) {
        r = nn_tensor_empty(lang_vm_ctx(vm), p->dtype, p->ndim, p->shape);
        if (r && nn_tensor_bernoulli_(lang_vm_ctx(vm), r, pf, g)) {
            nn_tensor_release(r);
            r = NULL;
        }
    }
    nn_tensor_release(p);
    return ok && finish(vm, r, out);
}

#define B(n, f, sig, doc, ex)                                                                      \
    {                                                                                              \
        n, f, {                                                                                    \
            n, sig, doc, ex                                                                        \
        }                                                                                          \
    }
const lang_builtin_def lang_generator_builtins[] = {
    B("Generator", b_generator, "Generator(device='cpu')",
      "A random generator of its own (PyTorch's CPU generator): seed it with manual_seed and "
      "pass it as generator=.",
      "g = Generator().manual_seed(2147483647)"),
    B("manual_seed", b_manual_seed, "manual_seed(seed)",
      "Seed the session's default generator, PyTorch's: after manual_seed(s) randn, rand, "
      "randint, dropout, init and module defaults give torch's numbers. Returns the default "
      "generator.",
      "manual_seed(0)"),
    B("initial_seed", b_initial_seed, "initial_seed()",
      "The seed of the default generator (67280421310721 until manual_seed is called).",
      "initial_seed()"),
    B("seed", b_seed, "seed()",
      "Seed the default generator from the operating system's randomness; returns the seed.",
      "s = seed()"),
    B("get_rng_state", b_get_rng_state, "get_rng_state()",
      "The default generator's state (PyTorch's 5056 bytes, as an int64 tensor).",
      "s = get_rng_state()"),
    B("set_rng_state", b_set_rng_state, "set_rng_state(new_state)",
      "Restore the default generator to a state get_rng_state() returned.", "set_rng_state(s)"),
    B("randperm", b_randperm, "randperm(n, generator=None, dtype=int64)",
      "A random permutation of 0..n-1, as torch draws it.", "randperm(10)"),
    B("multinomial", b_multinomial,
      "multinomial(input, num_samples, replacement=False, generator=None)",
      "Sample category indices from the rows of input (non-negative weights), as torch does.",
      "multinomial(tensor([0.1, 0.6, 0.3]), 1, replacement=True)"),
    B("bernoulli", b_bernoulli, "bernoulli(input, p=None, generator=None)",
      "0 or 1 per element, 1 with probability input[i] (or p, for a tensor shaped like input).",
      "bernoulli(full((3,), 0.5))"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
