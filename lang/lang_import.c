/* lang_import: module objects, the registry of builtin modules, and what
 * the import statement asks of them (see lang_import.h for the design:
 * how a module is added, how torch.* names resolve). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lang_ast.h"
#include "lang_eval.h"
#include "lang_import.h"
#include "lang_std.h"
#include "lang_suggest.h"
#include "lang_tensor.h"
#include "lang_value_impl.h"
#include "nn_ops.h"

/* ------------------------------------------------------------------ module objects */

typedef struct module_obj {
    lang_obj hdr;
    const lang_module_def *def; /* a builtin module's, NULL for a user's */
    char *name;
    /* A user's .py/.nn file: its globals are its attributes. */
    lang_gtab *ns;
    char *file; /* the path it was loaded from */
    char *dir;  /* a package: the directory its submodules are found in */
    bool initializing;
    /* Attributes in insertion order; [keys] stays NULL-terminated for
     * dir(). [index] maps a hash to entry + 1 (open addressing). */
    int n, cap;
    char **keys;
    uint32_t *hashes;
    lang_val *vals;
    int *index;
    int index_cap; /* power of two, at least 2n */
} module_obj;

static module_obj *MOD(lang_val v) {
    return (module_obj *)v.u.o;
}

static uint32_t name_hash(const char *s) {
    return lang_name_hash(s, strlen(s));
}

static int attr_find(const module_obj *m, const char *name, uint32_t h) {
    if (!m->index_cap) return -1;
    for (int i = (int)(h & (uint32_t)(m->index_cap - 1));; i = (i + 1) & (m->index_cap - 1)) {
        int e = m->index[i];
        if (!e) return -1;
        if (m->hashes[e - 1] == h && !strcmp(m->keys[e - 1], name)) return e - 1;
    }
}

static bool attr_reindex(lang_vm *vm, module_obj *m, int cap) {
    int *idx = calloc((size_t)cap, sizeof *idx);
    if (!idx) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int k = 0; k < m->n; k++) {
        int i = (int)(m->hashes[k] & (uint32_t)(cap - 1));
        while (idx[i]) i = (i + 1) & (cap - 1);
        idx[i] = k + 1;
    }
    free(m->index);
    m->index = idx;
    m->index_cap = cap;
    return true;
}

static bool attr_set(lang_vm *vm, module_obj *m, const char *name, lang_val v) {
    uint32_t h = name_hash(name);
    int k = attr_find(m, name, h);
    if (k >= 0) {
        lang_val old = m->vals[k];
        m->vals[k] = lang_val_retain(v);
        lang_val_release(old);
        return true;
    }
    if (m->n + 1 >= m->cap) {
        int cap = m->cap ? m->cap * 2 : 16;
        char **keys = realloc(m->keys, sizeof *keys * (size_t)(cap + 1));
        if (!keys) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        m->keys = keys;
        uint32_t *hs = realloc(m->hashes, sizeof *hs * (size_t)cap);
        if (!hs) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        m->hashes = hs;
        lang_val *vals = realloc(m->vals, sizeof *vals * (size_t)cap);
        if (!vals) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        m->vals = vals;
        m->cap = cap;
    }
    if ((m->n + 1) * 2 > m->index_cap && !attr_reindex(vm, m, m->index_cap ? m->index_cap * 2 : 32))
        return false;
    char *key = strdup(name);
    if (!key) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    m->keys[m->n] = key;
    m->hashes[m->n] = h;
    m->vals[m->n] = lang_val_retain(v);
    m->n++;
    m->keys[m->n] = NULL;
    int i = (int)(h & (uint32_t)(m->index_cap - 1));
    while (m->index[i]) i = (i + 1) & (m->index_cap - 1);
    m->index[i] = m->n;
    return true;
}

/* Drop every attribute (breaks cycles a user may have made, torch.me = torch). */
static void attr_clear(module_obj *m) {
    int n = m->n;
    m->n = 0;
    for (int k = 0; k < n; k++) {
        free(m->keys[k]);
        lang_val_release(m->vals[k]);
    }
    if (m->keys) m->keys[0] = NULL;
    if (m->index) memset(m->index, 0, sizeof *m->index * (size_t)m->index_cap);
}

static void module_free(lang_obj *o) {
    module_obj *m = (module_obj *)o;
    if (m->ns) {
        lang_gtab_free(m->ns);
        free(m->ns);
    }
    free(m->file);
    free(m->dir);
    attr_clear(m);
    free(m->keys);
    free(m->hashes);
    free(m->vals);
    free(m->index);
    free(m->name);
}

static bool module_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    module_obj *m = (module_obj *)o;
    if (m->file)
        lang_buf_printf(out, "<module '%s' from '%s'>", m->name, m->file);
    else if (m->ns)
        lang_buf_printf(out, "<module '%s' (namespace)>", m->name);
    else
        lang_buf_printf(out, "<module '%s' (built-in)>", m->name);
    return true;
}

static const lang_torch_namespace *torch_namespace(const char *name) {
    for (const lang_torch_namespace *ns = lang_torch_namespaces; ns->name; ns++)
        if (!strcmp(ns->name, name)) return ns;
    return NULL;
}

static int cmp_name(const void *key, const void *item) {
    return strcmp((const char *)key, *(const char *const *)item);
}

static bool torch_has(const lang_torch_namespace *ns, const char *name) {
    return ns && bsearch(name, ns->names, (size_t)ns->n, sizeof ns->names[0], cmp_name) != NULL;
}

static const lang_module_def *find_def(lang_vm *vm, const char *name);
static bool loaded_get(lang_vm *vm, const char *name, lang_val *out);

/* The builtin of a bare name (what it means when no global shadows it). */
static bool builtin_value(lang_vm *vm, const char *name, lang_val *out) {
    size_t len = strlen(name);
    int64_t k = lang_vm_global_slot(vm, name, len, lang_name_hash(name, len));
    if (k < 0 || !vm->globals[k].has_builtin) return false;
    *out = lang_val_retain(vm->globals[k].builtin);
    return true;
}

static bool in_list(const char *const *list, const char *name) {
    for (; list && *list; list++)
        if (!strcmp(*list, name)) return true;
    return false;
}

/* Resolve [name] beyond the attribute table: a submodule, a re-exported
 * builtin, a PyTorch name. Found values are cached in the table. */
static bool module_resolve(lang_vm *vm, module_obj *m, const char *name, lang_val *out,
                           bool *found) {
    const lang_module_def *d = m->def;
    char sub[256];
    int sn = snprintf(sub, sizeof sub, "%s.%s", m->name, name);
    if (sn > 0 && (size_t)sn < sizeof sub && find_def(vm, sub)) {
        if (!lang_import_module(vm, sub, out)) return false;
        *found = true;
        return true; /* importing set the attribute on the parent */
    }
    bool have = false;
    if (in_list(d->builtins, name)) have = builtin_value(vm, name, out);
    const lang_torch_namespace *ns = d->torch_names ? torch_namespace(d->name) : NULL;
    bool torch_name = torch_has(ns, name);
    if (!have && torch_name) {
        have = builtin_value(vm, name, out);
        if (!have && d->via) {
            lang_val via;
            if (builtin_value(vm, d->via, &via)) {
                if (lang_getattr(vm, via, name, out))
                    have = true;
                else
                    lang_vm_clear_error(vm);
                lang_val_release(via);
            }
        }
    }
    if (have) {
        *found = true;
        if (!attr_set(vm, m, name, *out)) {
            lang_val_release(*out);
            return false;
        }
        return true;
    }
    if (torch_name)
        return lang_raise(vm, LANG_ERR_ATTRIBUTE, "%s.%s is not available in nndb", m->name, name);
    return true;
}

static bool module_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    module_obj *m = (module_obj *)o;
    if (m->ns) {
        lang_val *v = lang_gtab_get(m->ns, name);
        *found = v != NULL;
        if (v) {
            *out = lang_val_retain(*v);
            return true;
        }
        char sub[512];
        int sn = snprintf(sub, sizeof sub, "%s.%s", m->name, name);
        if (sn > 0 && (size_t)sn < sizeof sub && loaded_get(vm, sub, out)) {
            *found = true;
            return true;
        }
        if (m->initializing)
            return lang_raise(vm, LANG_ERR_ATTRIBUTE,
                              "partially initialized module '%s' has no attribute '%s' (most "
                              "likely due to a circular import)",
                              m->name, name);
        return lang_raise(vm, LANG_ERR_ATTRIBUTE, "module '%s' has no attribute '%s'", m->name,
                          name);
    }
    int k = attr_find(m, name, name_hash(name));
    if (k >= 0) {
        *out = lang_val_retain(m->vals[k]);
        *found = true;
        return true;
    }
    if (!strcmp(name, "__name__")) {
        *found = true;
        return lang_str_from_cstr(vm, m->name, out);
    }
    if (!strcmp(name, "__doc__")) {
        *found = true;
        if (!m->def->doc) {
            *out = lang_none();
            return true;
        }
        return lang_str_from_cstr(vm, m->def->doc, out);
    }
    *found = false;
    if (!module_resolve(vm, m, name, out, found)) return false;
    if (*found) return true;
    /* Python 3.11's suggestion, among the names this module has. */
    const lang_torch_namespace *ns = m->def->torch_names ? torch_namespace(m->def->name) : NULL;
    int cap = m->n + (ns ? ns->n : 0) + 64, n = 0;
    const char **cands = malloc(sizeof *cands * (size_t)cap);
    const char *best = NULL;
    if (cands) {
        for (int j = 0; j < m->n; j++) cands[n++] = m->keys[j];
        for (const lang_builtin_def *f = m->def->functions; f && f->name && n < cap; f++)
            cands[n++] = f->name;
        for (int j = 0; ns && j < ns->n && n < cap; j++) {
            lang_val tmp;
            if (builtin_value(vm, ns->names[j], &tmp)) {
                lang_val_release(tmp);
                cands[n++] = ns->names[j];
            }
        }
        best = lang_suggest(name, cands, (size_t)n);
    }
    bool r = lang_raise(vm, LANG_ERR_ATTRIBUTE, "module '%s' has no attribute '%s'", m->name, name);
    if (best) snprintf(vm->hint, sizeof vm->hint, ". Did you mean: '%s'?", best);
    free(cands);
    return r;
}

static bool module_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    module_obj *m = (module_obj *)o;
    if (m->ns) return lang_gtab_set(vm, m->ns, name, v);
    return attr_set(vm, m, name, v);
}

static const char *const *module_fields(lang_obj *o) {
    module_obj *m = (module_obj *)o;
    static const char *const none[] = {NULL};
    return m->keys ? (const char *const *)m->keys : none;
}

const lang_type lang_module_type = {
    .name = "module",
    .free = module_free,
    .repr = module_repr,
    .getattr = module_getattr,
    .setattr = module_setattr,
    .fields = module_fields,
};

bool lang_is_module(lang_val v) {
    return lang_is_obj(v, &lang_module_type);
}

const char *lang_module_name(lang_val v) {
    return MOD(v)->name;
}

bool lang_module_set(lang_vm *vm, lang_val module, const char *name, lang_val v) {
    return module_setattr(vm, module.u.o, name, v);
}

bool lang_module_initializing(lang_val v) {
    return lang_is_module(v) && MOD(v)->initializing;
}

const char *lang_module_file(lang_val v) {
    return lang_is_module(v) ? MOD(v)->file : NULL;
}

/* ------------------------------------------------------------------ the registry */

typedef struct loaded_module {
    char *name;
    lang_val mod;
} loaded_module;

struct lang_import_state {
    const lang_module_def **defs; /* added with lang_import_add */
    int ndefs, cap_defs;
    loaded_module *loaded; /* sys.modules */
    int nloaded, cap_loaded;
    lang_val sysmods; /* sys.modules as the user sees it: a dict kept in step, or None */
};

static struct lang_import_state *state(lang_vm *vm) {
    if (!vm->imports) {
        vm->imports = calloc(1, sizeof *vm->imports);
        if (vm->imports) vm->imports->sysmods = lang_none();
    }
    return vm->imports;
}

static const lang_module_def *find_def(lang_vm *vm, const char *name) {
    struct lang_import_state *st = vm->imports;
    for (int i = 0; st && i < st->ndefs; i++)
        if (!strcmp(st->defs[i]->name, name)) return st->defs[i];
    for (int i = 0; lang_builtin_modules[i]; i++)
        if (!strcmp(lang_builtin_modules[i]->name, name)) return lang_builtin_modules[i];
    for (int i = 0; lang_std_modules[i]; i++)
        if (!strcmp(lang_std_modules[i]->name, name)) return lang_std_modules[i];
    return NULL;
}

bool lang_import_add(lang_vm *vm, const lang_module_def *def) {
    struct lang_import_state *st = state(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    if (find_def(vm, def->name))
        return lang_raise(vm, LANG_ERR_VALUE, "a module named '%s' is already registered",
                          def->name);
    if (st->ndefs == st->cap_defs) {
        int cap = st->cap_defs ? st->cap_defs * 2 : 8;
        const lang_module_def **d = realloc(st->defs, sizeof *d * (size_t)cap);
        if (!d) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        st->defs = d;
        st->cap_defs = cap;
    }
    st->defs[st->ndefs++] = def;
    return true;
}

void lang_import_free(lang_vm *vm) {
    struct lang_import_state *st = vm->imports;
    if (!st) return;
    lang_val sysmods = st->sysmods;
    st->sysmods = lang_none();
    for (int i = 0; i < st->nloaded; i++) {
        attr_clear(MOD(st->loaded[i].mod));
        /* A user module's functions hold the module: clearing its globals
         * breaks the cycle. */
        if (MOD(st->loaded[i].mod)->ns) lang_gtab_clear(MOD(st->loaded[i].mod)->ns);
    }
    lang_val_release(sysmods); /* sys no longer holds it: the dict goes */
    for (int i = 0; i < st->nloaded; i++) {
        lang_val_release(st->loaded[i].mod);
        free(st->loaded[i].name);
    }
    free(st->loaded);
    free(st->defs);
    free(st);
    vm->imports = NULL;
}

static bool loaded_get(lang_vm *vm, const char *name, lang_val *out) {
    struct lang_import_state *st = vm->imports;
    for (int i = 0; st && i < st->nloaded; i++)
        if (!strcmp(st->loaded[i].name, name)) {
            *out = lang_val_retain(st->loaded[i].mod);
            return true;
        }
    return false;
}

/* Keep the sys.modules dict in step (once sys is imported); None drops. */
static bool sysmods_note(lang_vm *vm, const char *name, lang_val mod) {
    struct lang_import_state *st = vm->imports;
    if (!st || st->sysmods.kind == LANG_NONE) return true;
    lang_val key;
    if (!lang_str_from_cstr(vm, name, &key)) return false;
    bool ok;
    if (mod.kind == LANG_NONE) {
        bool found;
        ok = lang_dict_del(vm, st->sysmods, key, &found);
    } else {
        ok = lang_dict_set(vm, st->sysmods, key, mod);
    }
    lang_val_release(key);
    return ok;
}

/* sys.modules: made when sys is first imported, with what is loaded. */
static bool sysmods_make(lang_vm *vm, lang_val sys) {
    struct lang_import_state *st = state(vm);
    if (!st || st->sysmods.kind != LANG_NONE) return true;
    lang_val d;
    if (!lang_dict_new(vm, &d)) return false;
    st->sysmods = d;
    for (int i = 0; i < st->nloaded; i++)
        if (!sysmods_note(vm, st->loaded[i].name, st->loaded[i].mod)) return false;
    return lang_module_set(vm, sys, "modules", d);
}

/* Note [mod] in sys.modules as [name] (retains it). */
static bool loaded_add(lang_vm *vm, const char *name, lang_val mod) {
    struct lang_import_state *st = state(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    if (st->nloaded == st->cap_loaded) {
        int cap = st->cap_loaded ? st->cap_loaded * 2 : 16;
        loaded_module *l = realloc(st->loaded, sizeof *l * (size_t)cap);
        if (!l) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        st->loaded = l;
        st->cap_loaded = cap;
    }
    st->loaded[st->nloaded].name = strdup(name);
    if (!st->loaded[st->nloaded].name) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    st->loaded[st->nloaded].mod = lang_val_retain(mod);
    st->nloaded++;
    return sysmods_note(vm, name, mod);
}

/* Forget [name] (an import that failed), as Python drops it from sys.modules. */
static void loaded_drop(lang_vm *vm, const char *name) {
    struct lang_import_state *st = vm->imports;
    for (int i = 0; st && i < st->nloaded; i++)
        if (!strcmp(st->loaded[i].name, name)) {
            lang_val m = st->loaded[i].mod;
            free(st->loaded[i].name);
            memmove(&st->loaded[i], &st->loaded[i + 1],
                    sizeof st->loaded[0] * (size_t)(st->nloaded - i - 1));
            st->nloaded--;
            if (MOD(m)->ns) lang_gtab_clear(MOD(m)->ns);
            lang_val_release(m);
            if (!sysmods_note(vm, name, lang_none())) lang_vm_clear_error(vm);
            return;
        }
}

/* ------------------------------------------------------------------ the user's modules */

/* `import model` finds model.py (or model.nn, or a package model/ with or
 * without __init__.py) in the running script's directory, then the
 * current directory, then each entry of sys.path; a submodule is looked
 * for in its package's directory. The file runs once, in a namespace of
 * its own (its globals are the module's attributes), and is cached in
 * sys.modules before it runs, so circular imports see the partly
 * initialised module as in Python. */

static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void join_path(char *out, size_t cap, const char *dir, const char *name) {
    if (!dir || !*dir)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

/* Look for [name] in [dir]: *file is the source to run (NULL for a
 * namespace package), *pkgdir the package's directory (NULL for a plain
 * module). Both malloc'ed. */
static bool find_in(const char *dir, const char *name, char **file, char **pkgdir) {
    char p[4096], q[4200];
    static const char *const exts[] = {".py", ".nn"};
    join_path(p, sizeof p, dir, name);
    if (is_dir(p)) {
        for (int i = 0; i < 2; i++) {
            snprintf(q, sizeof q, "%s/__init__%s", p, exts[i]);
            if (is_file(q)) {
                *file = strdup(q);
                *pkgdir = strdup(p);
                return true;
            }
        }
    }
    for (int i = 0; i < 2; i++) {
        char f[4200];
        snprintf(f, sizeof f, "%s%s", p, exts[i]);
        if (is_file(f)) {
            *file = strdup(f);
            *pkgdir = NULL;
            return true;
        }
    }
    return false;
}

static bool find_namespace(const char *dir, const char *name, char **pkgdir) {
    char p[4096];
    join_path(p, sizeof p, dir, name);
    if (!is_dir(p)) return false;
    *pkgdir = strdup(p);
    return true;
}

/* The directories a top-level import searches, as a NULL-terminated
 * malloc'ed vector of malloc'ed strings. */
static char **search_dirs(lang_vm *vm) {
    char **dirs = calloc(66, sizeof *dirs);
    if (!dirs) return NULL;
    int n = 0;
    lang_val sys, argv, path;
    if (loaded_get(vm, "sys", &sys) || lang_import_module(vm, "sys", &sys)) {
        if (lang_getattr(vm, sys, "argv", &argv)) {
            if (lang_is_obj(argv, &lang_list_type) && lang_seq_len(argv) > 0 &&
                lang_is_str(lang_seq_items(argv)[0])) {
                const char *a0 = lang_str_cstr(lang_seq_items(argv)[0]);
                const char *slash = strrchr(a0, '/');
                if (*a0)
                    dirs[n++] =
                        slash ? strndup(a0, (size_t)(slash - a0 + (slash == a0))) : strdup("");
            }
            lang_val_release(argv);
        }
        dirs[n++] = strdup("");
        if (lang_getattr(vm, sys, "path", &path)) {
            if (lang_is_obj(path, &lang_list_type))
                for (int64_t k = 0; k < lang_seq_len(path) && n < 64; k++)
                    if (lang_is_str(lang_seq_items(path)[k]))
                        dirs[n++] = strdup(lang_str_cstr(lang_seq_items(path)[k]));
            lang_val_release(path);
        }
        lang_val_release(sys);
    }
    lang_vm_clear_error(vm);
    if (n == 0) dirs[n++] = strdup("");
    return dirs;
}

static void free_dirs(char **dirs) {
    for (int i = 0; dirs && dirs[i]; i++) free(dirs[i]);
    free(dirs);
}

static char *read_source(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    lang_buf b;
    lang_buf_init(&b);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) lang_buf_add(&b, chunk, n);
    fclose(fp);
    *len = b.len;
    if (!b.data) return strdup("");
    return lang_buf_take(&b);
}

/* Import the user module [dotted] whose parent package (or NULL) is
 * [parent]; *found false (no error) when there is no such file. */
static bool user_import(lang_vm *vm, const char *dotted, lang_val parent, lang_val *out,
                        bool *found) {
    *found = false;
    const char *base = strrchr(dotted, '.');
    base = base ? base + 1 : dotted;
    char *file = NULL, *pkgdir = NULL;
    if (parent.kind != LANG_NONE) {
        module_obj *pm = MOD(parent);
        if (!pm->dir) return true;
        if (!find_in(pm->dir, base, &file, &pkgdir) && !find_namespace(pm->dir, base, &pkgdir))
            return true;
    } else {
        char **dirs = search_dirs(vm);
        if (!dirs) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        bool hit = false;
        for (int i = 0; dirs[i] && !hit; i++) hit = find_in(dirs[i], base, &file, &pkgdir);
        for (int i = 0; dirs[i] && !hit; i++) hit = find_namespace(dirs[i], base, &pkgdir);
        free_dirs(dirs);
        if (!hit) return true;
    }
    *found = true;
    module_obj *m = lang_obj_new(vm, &lang_module_type, sizeof *m);
    if (!m) {
        free(file);
        free(pkgdir);
        return false;
    }
    lang_val mv = lang_obj_val(&m->hdr);
    m->name = strdup(dotted);
    m->file = file;
    m->dir = pkgdir;
    m->ns = calloc(1, sizeof *m->ns);
    if (m->file) { /* Python's __file__ is absolute */
        char *abs = realpath(m->file, NULL);
        if (abs) {
            free(m->file);
            m->file = abs;
        }
    }
    if (!m->name || !m->ns) {
        lang_val_release(mv);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    m->ns->owner = &m->hdr;
    m->ns->modname = m->name;
    lang_val sv;
    bool ok = lang_str_from_cstr(vm, dotted, &sv);
    if (ok) {
        ok = lang_gtab_set(vm, m->ns, "__name__", sv);
        lang_val_release(sv);
    }
    if (ok && m->file && lang_str_from_cstr(vm, m->file, &sv)) {
        ok = lang_gtab_set(vm, m->ns, "__file__", sv);
        lang_val_release(sv);
    }
    if (!ok || !loaded_add(vm, dotted, mv)) {
        lang_val_release(mv);
        return false;
    }
    /* The parent gets the child as an attribute, as Python binds it. */
    if (parent.kind != LANG_NONE && !lang_module_set(vm, parent, base, mv)) {
        loaded_drop(vm, dotted);
        lang_val_release(mv);
        return false;
    }
    if (m->file) {
        size_t len;
        char *src = read_source(m->file, &len);
        if (!src) {
            loaded_drop(vm, dotted);
            lang_val_release(mv);
            return lang_raise(vm, LANG_ERR_IO, "cannot read %s", m->file);
        }
        m->initializing = true;
        ok = lang_eval_code_in(vm, src, len, m->file, m->ns);
        m->initializing = false;
        free(src);
        if (!ok) {
            loaded_drop(vm, dotted);
            lang_val_release(mv);
            return false;
        }
    }
    *out = mv;
    return true;
}

/* Create the module of [d] and fill it from its def. */
static bool module_create(lang_vm *vm, const lang_module_def *d, lang_val *out) {
    struct lang_import_state *st = state(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    module_obj *m = lang_obj_new(vm, &lang_module_type, sizeof *m);
    if (!m) return false;
    m->def = d;
    m->name = strdup(d->name);
    lang_val mv = lang_obj_val(&m->hdr);
    if (!m->name) {
        lang_val_release(mv);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (const lang_builtin_def *f = d->functions; f && f->name; f++) {
        lang_val fv;
        if (!lang_builtin_new(vm, f->fn, &f->help, &fv)) {
            lang_val_release(mv);
            return false;
        }
        bool ok = attr_set(vm, m, f->name, fv);
        lang_val_release(fv);
        if (!ok) {
            lang_val_release(mv);
            return false;
        }
    }
    /* Registered before init runs, so an init that reaches its own module
     * by name finds it instead of recursing. */
    if (!loaded_add(vm, d->name, mv)) {
        lang_val_release(mv);
        return false;
    }
    if (!strcmp(d->name, "sys") && !sysmods_make(vm, mv)) {
        lang_val_release(mv);
        return false;
    }
    if (d->init && !d->init(vm, mv)) {
        lang_val_release(mv);
        return false;
    }
    *out = mv;
    return true;
}

static bool not_found(lang_vm *vm, const char *dotted) {
    char top[128];
    size_t n = strcspn(dotted, ".");
    snprintf(top, sizeof top, "%.*s", (int)(n < sizeof top ? n : sizeof top - 1), dotted);
    if (!strcmp(top, "numpy"))
        return lang_raise_named(vm, LANG_ERR_IMPORT, "ModuleNotFoundError",
                                "No module named '%s': nndb has no NumPy; use torch tensors "
                                "(torch.tensor, torch.zeros, x.tolist(), x.item())",
                                dotted);
    const lang_torch_namespace *ns = torch_namespace("torch");
    if (!strcmp(top, "torch") && dotted[n] == '.') {
        /* torch.fft, torch.distributions, ...: PyTorch has it, nndb not. */
        const char *rest = dotted + n + 1;
        char first[128];
        size_t m = strcspn(rest, ".");
        snprintf(first, sizeof first, "%.*s", (int)(m < sizeof first ? m : sizeof first - 1), rest);
        if (torch_has(ns, first) || strchr(rest, '.'))
            return lang_raise_named(vm, LANG_ERR_IMPORT, "ModuleNotFoundError",
                                    "%s is not available in nndb", dotted);
    }
    lang_buf b;
    lang_buf_init(&b);
    int shown = 0;
    for (int i = 0; lang_builtin_modules[i]; i++) {
        if (strchr(lang_builtin_modules[i]->name, '.') &&
            strncmp(lang_builtin_modules[i]->name, "os.", 3))
            continue;
        lang_buf_printf(&b, "%s%s", shown++ ? ", " : "", lang_builtin_modules[i]->name);
    }
    for (int i = 0; lang_std_modules[i]; i++)
        if (!strchr(lang_std_modules[i]->name, '.'))
            lang_buf_printf(&b, "%s%s", shown++ ? ", " : "", lang_std_modules[i]->name);
    struct lang_import_state *st = vm->imports;
    for (int i = 0; st && i < st->ndefs; i++)
        if (!strchr(st->defs[i]->name, '.'))
            lang_buf_printf(&b, "%s%s", shown++ ? ", " : "", st->defs[i]->name);
    bool r =
        lang_raise_named(vm, LANG_ERR_IMPORT, "ModuleNotFoundError",
                         "No module named '%s' (nndb's modules: %s)", dotted, b.data ? b.data : "");
    lang_buf_free(&b);
    return r;
}

/* Import the parent package of [dotted] ("torch" for "torch.nn") into
 * *parent (None for a top-level name). *done is set when importing the
 * parent imported [dotted] itself (then *out holds it and *parent is
 * released). */
static bool import_parent(lang_vm *vm, const char *dotted, lang_val *parent, lang_val *out,
                          bool *done) {
    const char *dot = strrchr(dotted, '.');
    *parent = lang_none();
    *done = false;
    if (!dot) return true;
    char *pname = strndup(dotted, (size_t)(dot - dotted));
    if (!pname) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    bool ok = lang_import_module(vm, pname, parent);
    free(pname);
    if (!ok) return false;
    if (loaded_get(vm, dotted, out)) { /* the parent's init imported it */
        lang_val_release(*parent);
        *parent = lang_none();
        *done = true;
    }
    return true;
}

bool lang_import_module(lang_vm *vm, const char *dotted, lang_val *out) {
    if (loaded_get(vm, dotted, out)) return true;
    const lang_module_def *d = find_def(vm, dotted);
    if (!d) {
        /* The user's own module: its parent package first. */
        const char *dot = strrchr(dotted, '.');
        lang_val parent;
        bool done;
        if (!import_parent(vm, dotted, &parent, out, &done)) return false;
        if (done) return true;
        if (dot && !MOD(parent)->ns) {
            lang_val_release(parent);
            return not_found(vm, dotted);
        }
        bool found;
        bool ok = user_import(vm, dotted, parent, out, &found);
        lang_val_release(parent);
        if (!ok) return false;
        if (found) return true;
        if (dot)
            return lang_raise_named(vm, LANG_ERR_IMPORT, "ModuleNotFoundError",
                                    "No module named '%s'", dotted);
        return not_found(vm, dotted);
    }
    if (d->alias) {
        if (builtin_value(vm, d->alias, out)) return true;
        return lang_raise_named(vm, LANG_ERR_IMPORT, "ModuleNotFoundError",
                                "No module named '%s': this build of nndb lacks it", dotted);
    }
    /* Parents first (import torch.nn imports torch), then bind the child
     * as the parent's attribute, as Python does. */
    const char *dot = strrchr(dotted, '.');
    lang_val parent;
    bool done;
    if (!import_parent(vm, dotted, &parent, out, &done)) return false;
    if (done) return true;
    if (!module_create(vm, d, out)) {
        lang_val_release(parent);
        return false;
    }
    if (dot) {
        bool ok = attr_set(vm, MOD(parent), dot + 1, *out);
        lang_val_release(parent);
        if (!ok) {
            lang_val_release(*out);
            return false;
        }
    }
    return true;
}

bool lang_import_torch_class(lang_vm *vm, const lang_type *t, lang_val *out, bool *found) {
    const char *name = t == &lang_tensor_type  ? "Tensor"
                       : t == &lang_size_type  ? "Size"
                       : t == &lang_dtype_type ? "dtype"
                                               : NULL;
    *found = false;
    if (!name) return true;
    lang_val torch;
    if (!lang_import_module(vm, "torch", &torch)) return false;
    bool ok = lang_getattr(vm, torch, name, out);
    lang_val_release(torch);
    *found = ok;
    return ok;
}

/* ------------------------------------------------------------------ PyTorch's namespaces */

/* Names torch re-exports from the session builtins besides its PyTorch
 * list (all of these are in PyTorch's torch namespace too; the list makes
 * the intent explicit for the ones the core family defines). */
static const char *const torch_builtins[] = {
    "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "manual_seed", NULL,
};

/* What torch has that is not a bare builtin: its dtype aliases (torch.float
 * is float32, where the bare `float` stays Python's) and the class objects
 * Tensor, Size and dtype, for isinstance and annotations. */
static bool torch_init(lang_vm *vm, lang_val mod) {
    static const struct {
        const char *name;
        nn_dtype dt;
    } dtypes[] = {{"float", NN_FLOAT32},     {"float32", NN_FLOAT32}, {"float64", NN_FLOAT64},
                  {"double", NN_FLOAT64},    {"int64", NN_INT64},     {"long", NN_INT64},
                  {"bool", NN_BOOL},         {"float16", NN_FLOAT16}, {"half", NN_FLOAT16},
                  {"bfloat16", NN_BFLOAT16}, {"int32", NN_INT32},     {"int", NN_INT32},
                  {"int16", NN_INT16},       {"short", NN_INT16},     {"int8", NN_INT8},
                  {"uint8", NN_UINT8}};
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (!lang_module_set(vm, mod, dtypes[i].name, lang_dtype_val(dtypes[i].dt))) return false;
    static const struct {
        const char *name, *qual;
        const lang_type *t;
    } classes[] = {{"Tensor", "torch.Tensor", &lang_tensor_type},
                   {"Size", "torch.Size", &lang_size_type},
                   {"dtype", "torch.dtype", &lang_dtype_type}};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        lang_val cls;
        if (!lang_typeobj_new(vm, classes[i].qual, LANG_OBJ, classes[i].t, NULL, classes[i].t->help,
                              &cls))
            return false;
        bool ok = lang_module_set(vm, mod, classes[i].name, cls);
        lang_val_release(cls);
        if (!ok) return false;
    }
    return true;
}

/* torch.cuda: nndb computes on the CPU, so scripts that ask take the CPU
 * path ("cuda" if torch.cuda.is_available() else "cpu"). */
static bool cuda_false(lang_vm *vm, const lang_args *a, lang_val *out) {
    *out = lang_bool(false);
    return true;
}
static bool cuda_zero(lang_vm *vm, const lang_args *a, lang_val *out) {
    *out = lang_int(0);
    return true;
}
static bool cuda_none(lang_vm *vm, const lang_args *a, lang_val *out) {
    *out = lang_none();
    return true;
}
static const lang_builtin_def cuda_functions[] = {
    {"is_available",
     cuda_false,
     {"torch.cuda.is_available", "is_available()", "False: nndb computes on the CPU.", ""}},
    {"device_count", cuda_zero, {"torch.cuda.device_count", "device_count()", "0.", ""}},
    {"manual_seed", cuda_none, {"torch.cuda.manual_seed", "manual_seed(seed)", "No CUDA.", ""}},
    {"manual_seed_all",
     cuda_none,
     {"torch.cuda.manual_seed_all", "manual_seed_all(seed)", "No CUDA.", ""}},
    {"synchronize",
     cuda_none,
     {"torch.cuda.synchronize", "synchronize()", "Nothing to wait for.", ""}},
    {"is_bf16_supported",
     cuda_false,
     {"torch.cuda.is_bf16_supported", "is_bf16_supported()", "False.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
static const lang_module_def torch_cuda_def = {.name = "torch.cuda",
                                               .doc = "No CUDA here: is_available() is False.",
                                               .functions = cuda_functions};

/* torch.device('cpu'): nndb's devices are their names ('cpu'), which
 * Tensor.to and Module.to take. */
static bool torch_device(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val t, index = lang_none();
    if (!lang_parse_args(vm, a, "device", "type|index", &t, &index)) return false;
    if (!lang_is_obj(t, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "device() expects a str such as 'cpu', not %s",
                          lang_type_name(t));
    *out = lang_val_retain(t);
    return true;
}
/* torch.equal(a, b): same shape and the same values. */
static bool torch_equal(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y;
    if (!lang_parse_args(vm, a, "equal", "input,other", &x, &y)) return false;
    nn_tensor *tx = lang_tensor_of(x), *ty = lang_tensor_of(y);
    if (!tx || !ty)
        return lang_raise(vm, LANG_ERR_TYPE, "equal(): argument 'input' must be Tensor, not %s",
                          lang_type_name(tx ? y : x));
    bool eq = tx->ndim == ty->ndim;
    for (int d = 0; eq && d < tx->ndim; d++) eq = tx->shape[d] == ty->shape[d];
    for (int64_t k = 0; eq && k < nn_tensor_numel(tx); k++)
        eq = nn_tensor_get_flat(tx, k) == nn_tensor_get_flat(ty, k);
    *out = lang_bool(eq);
    return true;
}

static const lang_builtin_def torch_functions[] = {
    {"equal",
     torch_equal,
     {"torch.equal", "equal(input, other)", "True when the shapes and all values are equal.",
      "torch.equal(torch.ones(2), torch.ones(2))"}},
    {"device",
     torch_device,
     {"torch.device", "device(type)", "A device by name; nndb computes on 'cpu'.",
      "torch.device('cpu')"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_module_def torch_def = {
    .name = "torch",
    .doc = "PyTorch's top-level namespace: tensors, math, dtypes, grad mode. Each name is the "
           "bare nndb builtin of the same name (torch.zeros is zeros).",
    .builtins = torch_builtins,
    .functions = torch_functions,
    .init = torch_init,
    .torch_names = true,
};
static const lang_module_def torch_nn_def = {
    .name = "torch.nn",
    .doc = "Modules (Linear, Embedding, LayerNorm, ...) and their containers.",
    .torch_names = true,
};
static const lang_module_def torch_nn_functional_def = {
    .name = "torch.nn.functional",
    .doc = "The functional forms: relu, softmax, cross_entropy, ...",
    .torch_names = true,
};
static const lang_module_def torch_nn_init_def = {
    .name = "torch.nn.init",
    .doc = "Parameter initialisation (xavier_uniform_, kaiming_normal_, ...).",
    .torch_names = true,
    .via = "init",
};
static const lang_module_def torch_nn_utils_def = {
    .name = "torch.nn.utils",
    .doc = "clip_grad_norm_ and other helpers.",
    .torch_names = true,
};
static const lang_module_def torch_optim_def = {
    .name = "torch.optim",
    .doc = "Optimizers: SGD, Adam, AdamW.",
    .torch_names = true,
};
static const lang_module_def torch_utils_def = {
    .name = "torch.utils",
    .torch_names = true,
};
static const lang_module_def torch_utils_data_def = {
    .name = "torch.utils.data",
    .doc = "Datasets and DataLoader.",
    .torch_names = true,
};
static const lang_module_def torch_autograd_def = {
    .name = "torch.autograd",
    .doc = "Automatic differentiation: grad, Function.",
    .torch_names = true,
};

const lang_module_def *const lang_builtin_modules[] = {
    &torch_def,
    &torch_nn_def,
    &torch_nn_functional_def,
    &torch_nn_init_def,
    &torch_nn_utils_def,
    &torch_optim_def,
    &lang_sched_module,
    &lang_argparse_module,
    &torch_utils_def,
    &torch_utils_data_def,
    &torch_autograd_def,
    &torch_cuda_def,
    NULL,
};
