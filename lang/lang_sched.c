/* lang_sched: torch.optim.lr_scheduler — StepLR, MultiStepLR,
 * ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR and
 * ReduceLROnPlateau.
 *
 * A scheduler writes each parameter group's 'lr' in the optimizer's
 * param_groups dicts (lang_nn.c's optimizer reads them at every step), by
 * the formulas of torch 1.13's get_lr(): most are chainable (the new lr is
 * computed from the group's current one), so the floating-point results are
 * torch's to the last bit, and a user who also edits group['lr'] sees what
 * torch would do. As in torch, constructing a scheduler sets the groups'
 * 'initial_lr' and takes its first step (last_epoch becomes 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lang_eval.h"
#include "lang_import.h"
#include "lang_vm.h"
#include "nn_tensor.h"

typedef enum sched_kind {
    SCHED_STEP,
    SCHED_MULTISTEP,
    SCHED_EXPONENTIAL,
    SCHED_COSINE,
    SCHED_LAMBDA,
    SCHED_LINEAR,
    SCHED_PLATEAU,
} sched_kind;

static const char *const sched_names[] = {
    "StepLR",   "MultiStepLR", "ExponentialLR",    "CosineAnnealingLR",
    "LambdaLR", "LinearLR",    "ReduceLROnPlateau"};

typedef struct sched_obj {
    lang_obj hdr;
    sched_kind kind;
    lang_val opt;        /* the optimizer */
    lang_val base_lrs;   /* list of floats: each group's initial_lr */
    lang_val last_lr;    /* list: the lrs after the last step */
    lang_val lambdas;    /* LambdaLR: a list of callables, one per group */
    lang_val milestones; /* MultiStepLR: a list of ints (repeats count) */
    int64_t last_epoch;
    int64_t step_size, t_max, total_iters;
    double gamma, eta_min, start_factor, end_factor;
    /* ReduceLROnPlateau */
    bool mode_max, rel;
    double factor, threshold, min_lr, eps, best;
    int64_t patience, cooldown, cooldown_counter, num_bad;
} sched_obj;

static void sched_free(lang_obj *o) {
    sched_obj *s = (sched_obj *)o;
    lang_val_release(s->opt);
    lang_val_release(s->base_lrs);
    lang_val_release(s->last_lr);
    lang_val_release(s->lambdas);
    lang_val_release(s->milestones);
}

static bool sched_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    (void)vm;
    lang_buf_printf(out, "<torch.optim.lr_scheduler.%s object>",
                    sched_names[((sched_obj *)o)->kind]);
    return true;
}

/* ---- the groups' dicts ---- */

static bool groups_of(lang_vm *vm, lang_val opt, lang_val *out) {
    if (!lang_getattr(vm, opt, "param_groups", out)) return false;
    if (!lang_is_obj(*out, &lang_list_type)) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_TYPE, "%s is not an Optimizer", lang_type_name(opt));
    }
    return true;
}

static bool group_get(lang_vm *vm, lang_val g, const char *k, double *out, bool *found) {
    lang_val key, v;
    if (!lang_str_from_cstr(vm, k, &key)) return false;
    bool ok = lang_dict_get(vm, g, key, &v, found);
    lang_val_release(key);
    if (!ok || !*found) return ok;
    ok = lang_to_float(vm, v, k, out);
    lang_val_release(v);
    return ok;
}

static bool group_set(lang_vm *vm, lang_val g, const char *k, lang_val v) {
    lang_val key;
    if (!lang_str_from_cstr(vm, k, &key)) return false;
    bool ok = lang_dict_set(vm, g, key, v);
    lang_val_release(key);
    return ok;
}

static bool group_lr(lang_vm *vm, lang_val g, double *lr) {
    bool found;
    if (!group_get(vm, g, "lr", lr, &found)) return false;
    return found || lang_raise(vm, LANG_ERR_KEY, "'lr'");
}

/* ---- the formulas (torch 1.13's get_lr) ---- */

static double py_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return (double)(r != 0 && ((r < 0) != (b < 0)) ? r + b : r);
}

static bool new_lr(lang_vm *vm, sched_obj *s, int64_t g, double lr, double base, double *out) {
    int64_t e = s->last_epoch;
    switch (s->kind) {
    case SCHED_STEP: *out = (e == 0 || e % s->step_size != 0) ? lr : lr * s->gamma; return true;
    case SCHED_MULTISTEP: {
        int64_t hits = 0;
        for (int64_t i = 0; i < lang_seq_len(s->milestones); i++)
            hits += lang_seq_items(s->milestones)[i].u.i == e;
        *out = hits ? lr * pow(s->gamma, (double)hits) : lr;
        return true;
    }
    case SCHED_EXPONENTIAL: *out = e == 0 ? lr : lr * s->gamma; return true;
    case SCHED_COSINE: {
        double T = (double)s->t_max;
        if (e == 0)
            *out = lr;
        else if (py_mod(e - 1 - s->t_max, 2 * s->t_max) == 0)
            *out = lr + (base - s->eta_min) * (1 - cos(M_PI / T)) / 2;
        else
            *out = (1 + cos(M_PI * (double)e / T)) / (1 + cos(M_PI * (double)(e - 1) / T)) *
                       (lr - s->eta_min) +
                   s->eta_min;
        return true;
    }
    case SCHED_LAMBDA: {
        lang_val f = lang_seq_items(s->lambdas)[g], arg = lang_int(e), r;
        lang_args a = {1, &arg, 0, NULL, NULL};
        if (!lang_vm_call(vm, f, &a, &r)) return false;
        double m;
        bool ok = lang_to_float(vm, r, "lr_lambda's result", &m);
        lang_val_release(r);
        *out = base * m;
        return ok;
    }
    case SCHED_LINEAR:
        if (e == 0)
            *out = lr * s->start_factor;
        else if (e > s->total_iters)
            *out = lr;
        else
            *out = lr * (1. + (s->end_factor - s->start_factor) /
                                  ((double)s->total_iters * s->start_factor +
                                   (double)(e - 1) * (s->end_factor - s->start_factor)));
        return true;
    case SCHED_PLATEAU: break;
    }
    *out = lr;
    return true;
}

static bool remember_lrs(lang_vm *vm, sched_obj *s, lang_val groups) {
    lang_val list;
    if (!lang_list_new(vm, 0, &list)) return false;
    for (int64_t g = 0; g < lang_seq_len(groups); g++) {
        double lr;
        if (!group_lr(vm, lang_seq_items(groups)[g], &lr) ||
            !lang_list_append(vm, list, lang_float(lr))) {
            lang_val_release(list);
            return false;
        }
    }
    lang_val_release(s->last_lr);
    s->last_lr = list;
    return true;
}

static bool sched_advance(lang_vm *vm, sched_obj *s) {
    lang_val groups;
    if (!groups_of(vm, s->opt, &groups)) return false;
    s->last_epoch++;
    int64_t n = lang_seq_len(groups);
    if (n != lang_seq_len(s->base_lrs)) {
        lang_val_release(groups);
        return lang_raise(vm, LANG_ERR_VALUE,
                          "the optimizer has %lld parameter groups, the scheduler was made for "
                          "%lld",
                          (long long)n, (long long)lang_seq_len(s->base_lrs));
    }
    /* compute every group's lr first, then write them (torch's order) */
    double *lrs = malloc(sizeof *lrs * (size_t)(n ? n : 1));
    bool ok = lrs != NULL || lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int64_t g = 0; ok && g < n; g++) {
        double lr;
        ok = group_lr(vm, lang_seq_items(groups)[g], &lr) &&
             new_lr(vm, s, g, lr, lang_seq_items(s->base_lrs)[g].u.f, &lrs[g]);
    }
    for (int64_t g = 0; ok && g < n; g++)
        ok = group_set(vm, lang_seq_items(groups)[g], "lr", lang_float(lrs[g]));
    free(lrs);
    if (ok) ok = remember_lrs(vm, s, groups);
    lang_val_release(groups);
    return ok;
}

/* ReduceLROnPlateau.step(metrics) */
static bool plateau_step(lang_vm *vm, sched_obj *s, double current) {
    s->last_epoch++;
    bool better;
    if (s->rel)
        better = s->mode_max ? current > s->best * (1 + s->threshold)
                             : current < s->best * (1 - s->threshold);
    else
        better = s->mode_max ? current > s->best + s->threshold : current < s->best - s->threshold;
    if (better) {
        s->best = current;
        s->num_bad = 0;
    } else {
        s->num_bad++;
    }
    if (s->cooldown_counter > 0) {
        s->cooldown_counter--;
        s->num_bad = 0;
    }
    lang_val groups;
    if (!groups_of(vm, s->opt, &groups)) return false;
    bool ok = true;
    if (s->num_bad > s->patience) {
        for (int64_t g = 0; ok && g < lang_seq_len(groups); g++) {
            double old;
            ok = group_lr(vm, lang_seq_items(groups)[g], &old);
            double lr = fmax(old * s->factor, s->min_lr);
            if (ok && old - lr > s->eps)
                ok = group_set(vm, lang_seq_items(groups)[g], "lr", lang_float(lr));
        }
        s->cooldown_counter = s->cooldown;
        s->num_bad = 0;
    }
    if (ok) ok = remember_lrs(vm, s, groups);
    lang_val_release(groups);
    return ok;
}

/* ---- methods ---- */

static bool m_step(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    sched_obj *s = (sched_obj *)self.u.o;
    lang_val mv = lang_none();
    if (s->kind == SCHED_PLATEAU) {
        double m;
        if (!lang_parse_args(vm, a, "step", "metrics", &mv)) return false;
        nn_tensor *t = lang_tensor_of(mv);
        if (t) {
            if (nn_tensor_item(lang_vm_ctx(vm), t, &m) != NN_OK) return lang_raise_engine(vm);
        } else if (!lang_to_float(vm, mv, "metrics", &m)) {
            return false;
        }
        if (!plateau_step(vm, s, m)) return false;
    } else {
        if (!lang_parse_args(vm, a, "step", "|epoch", &mv)) return false;
        if (mv.kind != LANG_NONE)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "step(epoch) is deprecated in torch and not in nndb; call step() "
                              "once per epoch");
        if (!sched_advance(vm, s)) return false;
    }
    *out = lang_none();
    return true;
}

static bool m_get_last_lr(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "get_last_lr", "")) return false;
    /* a copy, as torch's list is the scheduler's own */
    return lang_list_from_iter(vm, ((sched_obj *)self.u.o)->last_lr, out);
}

static const lang_method sched_methods[] = {
    {"step",
     m_step,
     {"LRScheduler.step", "step() | step(metrics) for ReduceLROnPlateau",
      "Advance the schedule one epoch (or one batch, as you call it) and write each parameter "
      "group's new lr.",
      "sched.step()"}},
    {"get_last_lr",
     m_get_last_lr,
     {"LRScheduler.get_last_lr", "get_last_lr()", "The lr of each group after the last step().",
      "sched.get_last_lr()[0]"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool sched_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    sched_obj *s = (sched_obj *)o;
    *found = true;
    if (!strcmp(name, "last_epoch")) {
        *out = lang_int(s->last_epoch);
        return true;
    }
    if (!strcmp(name, "optimizer")) {
        *out = lang_val_retain(s->opt);
        return true;
    }
    if (!strcmp(name, "base_lrs") && s->kind != SCHED_PLATEAU)
        return lang_list_from_iter(vm, s->base_lrs, out);
    if (!strcmp(name, "best") && s->kind == SCHED_PLATEAU) {
        *out = lang_float(s->best);
        return true;
    }
    if (!strcmp(name, "num_bad_epochs") && s->kind == SCHED_PLATEAU) {
        *out = lang_int(s->num_bad);
        return true;
    }
    *found = false;
    return true;
}

static const char *const sched_field_names[] = {"last_epoch", "optimizer", "base_lrs", NULL};
static const char *const *sched_fields(lang_obj *o) {
    (void)o;
    return sched_field_names;
}

static const lang_type sched_type = {
    .name = "LRScheduler",
    .free = sched_free,
    .repr = sched_repr,
    .getattr = sched_getattr,
    .fields = sched_fields,
    .methods = sched_methods,
};

/* ---- constructors ---- */

/* A scheduler over [opt]: the groups get 'initial_lr' (torch's setdefault
 * when last_epoch is -1), base_lrs are those, and the first step runs. */
static bool sched_new(lang_vm *vm, sched_kind kind, lang_val opt, sched_obj **out) {
    lang_val groups;
    if (!groups_of(vm, opt, &groups)) return false;
    sched_obj *s = lang_obj_new(vm, &sched_type, sizeof *s);
    if (!s) {
        lang_val_release(groups);
        return false;
    }
    memset((char *)s + sizeof s->hdr, 0, sizeof *s - sizeof s->hdr);
    s->kind = kind;
    s->opt = lang_val_retain(opt);
    s->base_lrs = s->last_lr = s->lambdas = s->milestones = lang_none();
    s->last_epoch = -1;
    bool ok = lang_list_new(vm, 0, &s->base_lrs);
    for (int64_t g = 0; ok && g < lang_seq_len(groups); g++) {
        lang_val d = lang_seq_items(groups)[g];
        double lr, init;
        bool found;
        ok = group_lr(vm, d, &lr) && group_get(vm, d, "initial_lr", &init, &found);
        if (ok && !found && kind != SCHED_PLATEAU) {
            init = lr;
            ok = group_set(vm, d, "initial_lr", lang_float(lr));
        }
        if (ok) ok = lang_list_append(vm, s->base_lrs, lang_float(found ? init : lr));
    }
    lang_val_release(groups);
    *out = s;
    if (!ok) {
        lang_val v = lang_obj_val(&s->hdr);
        lang_val_release(v);
    }
    return ok;
}

static bool sched_start(lang_vm *vm, sched_obj *s, lang_val *out) {
    lang_val v = lang_obj_val(&s->hdr);
    bool ok;
    if (s->kind == SCHED_PLATEAU) {
        s->last_epoch = 0;
        lang_val groups;
        ok = groups_of(vm, s->opt, &groups);
        if (ok) {
            ok = remember_lrs(vm, s, groups);
            lang_val_release(groups);
        }
    } else {
        ok = sched_advance(vm, s);
    }
    if (!ok) {
        lang_val_release(v);
        return false;
    }
    *out = v;
    return true;
}

static bool want_int(lang_vm *vm, lang_val v, const char *what, int64_t lo, int64_t *out) {
    if (!lang_to_int(vm, v, what, out)) return false;
    if (*out < lo)
        return lang_raise(vm, LANG_ERR_VALUE, "%s must be at least %lld, got %lld", what,
                          (long long)lo, (long long)*out);
    return true;
}

static bool f_step_lr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, ss, gv = lang_float(0.1), le = lang_int(-1), vb = lang_bool(false);
    int64_t step_size;
    double gamma;
    if (!lang_parse_args(vm, a, "StepLR", "optimizer,step_size|gamma,last_epoch,verbose", &opt, &ss,
                         &gv, &le, &vb) ||
        !want_int(vm, ss, "step_size", 1, &step_size) || !lang_to_float(vm, gv, "gamma", &gamma))
        return false;
    sched_obj *s;
    if (!sched_new(vm, SCHED_STEP, opt, &s)) return false;
    s->step_size = step_size;
    s->gamma = gamma;
    return sched_start(vm, s, out);
}

static bool f_multistep_lr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, ms, gv = lang_float(0.1), le = lang_int(-1), vb = lang_bool(false), list;
    double gamma;
    if (!lang_parse_args(vm, a, "MultiStepLR", "optimizer,milestones|gamma,last_epoch,verbose",
                         &opt, &ms, &gv, &le, &vb) ||
        !lang_to_float(vm, gv, "gamma", &gamma) || !lang_list_from_iter(vm, ms, &list))
        return false;
    for (int64_t i = 0; i < lang_seq_len(list); i++) {
        int64_t m;
        if (!lang_to_int(vm, lang_seq_items(list)[i], "milestones", &m)) {
            lang_val_release(list);
            return false;
        }
        lang_val_release(lang_seq_items(list)[i]);
        lang_seq_items(list)[i] = lang_int(m);
    }
    sched_obj *s;
    if (!sched_new(vm, SCHED_MULTISTEP, opt, &s)) {
        lang_val_release(list);
        return false;
    }
    s->milestones = list;
    s->gamma = gamma;
    return sched_start(vm, s, out);
}

static bool f_exponential_lr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, gv, le = lang_int(-1), vb = lang_bool(false);
    double gamma;
    if (!lang_parse_args(vm, a, "ExponentialLR", "optimizer,gamma|last_epoch,verbose", &opt, &gv,
                         &le, &vb) ||
        !lang_to_float(vm, gv, "gamma", &gamma))
        return false;
    sched_obj *s;
    if (!sched_new(vm, SCHED_EXPONENTIAL, opt, &s)) return false;
    s->gamma = gamma;
    return sched_start(vm, s, out);
}

static bool f_cosine_lr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, tv, ev = lang_int(0), le = lang_int(-1), vb = lang_bool(false);
    int64_t t_max;
    double eta_min;
    if (!lang_parse_args(vm, a, "CosineAnnealingLR", "optimizer,T_max|eta_min,last_epoch,verbose",
                         &opt, &tv, &ev, &le, &vb) ||
        !want_int(vm, tv, "T_max", 1, &t_max) || !lang_to_float(vm, ev, "eta_min", &eta_min))
        return false;
    sched_obj *s;
    if (!sched_new(vm, SCHED_COSINE, opt, &s)) return false;
    s->t_max = t_max;
    s->eta_min = eta_min;
    return sched_start(vm, s, out);
}

static bool f_lambda_lr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, fv, le = lang_int(-1), vb = lang_bool(false), list;
    if (!lang_parse_args(vm, a, "LambdaLR", "optimizer,lr_lambda|last_epoch,verbose", &opt, &fv,
                         &le, &vb))
        return false;
    sched_obj *s;
    if (!sched_new(vm, SCHED_LAMBDA, opt, &s)) return false;
    int64_t n = lang_seq_len(s->base_lrs);
    bool ok;
    if (lang_is_obj(fv, &lang_list_type) || lang_is_obj(fv, &lang_tuple_type)) {
        ok = lang_list_from_iter(vm, fv, &list);
        if (ok && lang_seq_len(list) != n) {
            lang_val_release(list);
            ok = lang_raise(vm, LANG_ERR_VALUE, "Expected %lld lr_lambdas, but got %lld",
                            (long long)n, (long long)lang_seq_len(fv));
        }
    } else {
        ok = lang_list_new(vm, 0, &list);
        for (int64_t g = 0; ok && g < n; g++) ok = lang_list_append(vm, list, fv);
    }
    if (!ok) {
        lang_val v = lang_obj_val(&s->hdr);
        lang_val_release(v);
        return false;
    }
    s->lambdas = list;
    return sched_start(vm, s, out);
}

static bool f_linear_lr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, sf = lang_float(1.0 / 3), ef = lang_float(1.0), ti = lang_int(5),
                  le = lang_int(-1), vb = lang_bool(false);
    double start, end;
    int64_t total;
    if (!lang_parse_args(vm, a, "LinearLR",
                         "optimizer|start_factor,end_factor,total_iters,last_epoch,verbose", &opt,
                         &sf, &ef, &ti, &le, &vb) ||
        !lang_to_float(vm, sf, "start_factor", &start) ||
        !lang_to_float(vm, ef, "end_factor", &end) || !want_int(vm, ti, "total_iters", 1, &total))
        return false;
    if (start > 1.0 || start <= 0)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "Starting multiplicative factor expected to be greater than 0 and less "
                          "or equal to 1.");
    if (end > 1.0 || end < 0)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "Ending multiplicative factor expected to be between 0 and 1.");
    sched_obj *s;
    if (!sched_new(vm, SCHED_LINEAR, opt, &s)) return false;
    s->start_factor = start;
    s->end_factor = end;
    s->total_iters = total;
    return sched_start(vm, s, out);
}

static bool f_plateau(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val opt, mv = lang_none(), fv = lang_float(0.1), pv = lang_int(10), tv = lang_float(1e-4),
                  tm = lang_none(), cv = lang_int(0), mn = lang_int(0), ev = lang_float(1e-8),
                  vb = lang_bool(false);
    const char *mode = "min", *tmode = "rel";
    double factor, threshold, min_lr, eps;
    int64_t patience, cooldown;
    if (!lang_parse_args(vm, a, "ReduceLROnPlateau",
                         "optimizer|mode,factor,patience,threshold,threshold_mode,cooldown,min_lr,"
                         "eps,verbose",
                         &opt, &mv, &fv, &pv, &tv, &tm, &cv, &mn, &ev, &vb) ||
        !lang_to_float(vm, fv, "factor", &factor) || !want_int(vm, pv, "patience", 0, &patience) ||
        !lang_to_float(vm, tv, "threshold", &threshold) ||
        !want_int(vm, cv, "cooldown", 0, &cooldown) || !lang_to_float(vm, mn, "min_lr", &min_lr) ||
        !lang_to_float(vm, ev, "eps", &eps))
        return false;
    if (mv.kind != LANG_NONE) mode = lang_is_obj(mv, &lang_str_type) ? lang_str_cstr(mv) : "?";
    if (tm.kind != LANG_NONE) tmode = lang_is_obj(tm, &lang_str_type) ? lang_str_cstr(tm) : "?";
    if (factor >= 1.0) return lang_raise(vm, LANG_ERR_VALUE, "Factor should be < 1.0.");
    if (strcmp(mode, "min") && strcmp(mode, "max"))
        return lang_raise(vm, LANG_ERR_VALUE, "mode %s is unknown!", mode);
    if (strcmp(tmode, "rel") && strcmp(tmode, "abs"))
        return lang_raise(vm, LANG_ERR_VALUE, "threshold mode %s is unknown!", tmode);
    sched_obj *s;
    if (!sched_new(vm, SCHED_PLATEAU, opt, &s)) return false;
    s->mode_max = !strcmp(mode, "max");
    s->rel = !strcmp(tmode, "rel");
    s->factor = factor;
    s->patience = patience;
    s->threshold = threshold;
    s->cooldown = cooldown;
    s->min_lr = min_lr;
    s->eps = eps;
    s->best = s->mode_max ? -INFINITY : INFINITY;
    return sched_start(vm, s, out);
}

static const lang_builtin_def sched_functions[] = {
    {"StepLR",
     f_step_lr,
     {"torch.optim.lr_scheduler.StepLR", "StepLR(optimizer, step_size, gamma=0.1)",
      "Multiply each group's lr by gamma every step_size steps.",
      "sched = StepLR(opt, step_size=10, gamma=0.5)"}},
    {"MultiStepLR",
     f_multistep_lr,
     {"torch.optim.lr_scheduler.MultiStepLR", "MultiStepLR(optimizer, milestones, gamma=0.1)",
      "Multiply each group's lr by gamma at each milestone step.",
      "sched = MultiStepLR(opt, milestones=[30, 80])"}},
    {"ExponentialLR",
     f_exponential_lr,
     {"torch.optim.lr_scheduler.ExponentialLR", "ExponentialLR(optimizer, gamma)",
      "Multiply each group's lr by gamma every step.", "sched = ExponentialLR(opt, gamma=0.9)"}},
    {"CosineAnnealingLR",
     f_cosine_lr,
     {"torch.optim.lr_scheduler.CosineAnnealingLR",
      "CosineAnnealingLR(optimizer, T_max, eta_min=0)",
      "Anneal each group's lr along a cosine from its initial value to eta_min over T_max steps "
      "(torch's recursive form).",
      "sched = CosineAnnealingLR(opt, T_max=100)"}},
    {"LambdaLR",
     f_lambda_lr,
     {"torch.optim.lr_scheduler.LambdaLR", "LambdaLR(optimizer, lr_lambda)",
      "Set each group's lr to initial_lr * lr_lambda(epoch) (one function, or one per group).",
      "sched = LambdaLR(opt, lambda e: 0.95 ** e)"}},
    {"LinearLR",
     f_linear_lr,
     {"torch.optim.lr_scheduler.LinearLR",
      "LinearLR(optimizer, start_factor=1/3, end_factor=1.0, total_iters=5)",
      "Scale each group's lr linearly from start_factor to end_factor over total_iters steps "
      "(a warmup).",
      "sched = LinearLR(opt, start_factor=0.1, total_iters=10)"}},
    {"ReduceLROnPlateau",
     f_plateau,
     {"torch.optim.lr_scheduler.ReduceLROnPlateau",
      "ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4, "
      "threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-8)",
      "Multiply the lr by factor when the metric given to step(metric) has not improved for "
      "patience steps.",
      "sched = ReduceLROnPlateau(opt, patience=2); sched.step(val_loss)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_module_def lang_sched_module = {
    .name = "torch.optim.lr_scheduler",
    .doc = "Learning-rate schedules that write the optimizer's param_groups: StepLR, "
           "MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, LinearLR, "
           "ReduceLROnPlateau.",
    .functions = sched_functions,
};
