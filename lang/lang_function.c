/* lang_function: torch.autograd.Function. A subclass defines
 * forward(ctx, *args) and backward(ctx, *grad_outputs) as static methods;
 * MyFn.apply(*args) runs forward without recording, then records one
 * engine node (nn_custom_apply) over the tensor arguments whose backward
 * calls the subclass's backward. So backward(), the debugger's hooks,
 * gradient checks and the NaN hunt meet the user's backward as a node of
 * the graph, named "<Class>Backward" as PyTorch names it.
 *
 * The ctx object is an instance of FunctionCtx: save_for_backward(*t),
 * saved_tensors, needs_input_grad, and any attribute the forward sets.
 * Each apply's record (the class, the ctx, the argument layout) lives
 * until the session ends, since the engine node refers to it by address.
 * Ownership follows lang_value.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_class.h"
#include "lang_eval.h"
#include "lang_function.h"
#include "lang_tensor.h"
#include "lang_value_impl.h"
#include "nn_ctx.h"
#include "nn_graph.h"
#include "nn_ops.h"

typedef struct fn_record {
    nn_custom c;
    lang_vm *vm;
    lang_val cls, ctx;
    int nargs;
    int *tensor_arg; /* for each engine input, the position of its argument */
    /* The recorded node that refers to [c] by address, while it lives
     * (dropped: the engine freed it). A record freed with the session
     * first unhooks a node that outlives it (a tensor the debugger keeps). */
    nn_node *node;
    bool dropped;
    struct fn_record *next;
} fn_record;

static void record_dropped(nn_custom *c) {
    ((fn_record *)(void *)c)->dropped = true; /* c is the record's first member */
}

struct lang_function_state {
    fn_record *records;
};

void lang_function_free(lang_vm *vm) {
    struct lang_function_state *st = vm->functions;
    if (!st) return;
    for (fn_record *r = st->records, *n; r; r = n) {
        n = r->next;
        if (r->node && !r->dropped) r->node->p.i[0] = 0;
        lang_val_release(r->cls);
        lang_val_release(r->ctx);
        nn_tensor_release(r->c.output);
        free(r->tensor_arg);
        free(r);
    }
    free(st);
    vm->functions = NULL;
}

/* Fail a backward with the language error as the engine's message. */
static nn_status fail_backward(lang_vm *vm, nn_ctx *ctx, const char *cls) {
    char msg[512];
    snprintf(msg, sizeof msg, "in %s.backward: %s: %s", cls,
             vm->ename ? vm->ename : lang_err_name(vm->err), vm->msg.data ? vm->msg.data : "");
    lang_vm_clear_error(vm);
    return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s", msg);
}

static nn_status custom_backward(nn_ctx *ctx, nn_custom *c, nn_tensor *dout, int n_in,
                                 const bool *needs, nn_tensor **din) {
    fn_record *r = (fn_record *)c;
    lang_vm *vm = r->vm;
    lang_class *cls = lang_class_of_val(r->cls);
    lang_val *bw = lang_class_lookup(cls, "backward");
    if (!bw) {
        lang_raise(vm, LANG_ERR_RUNTIME, "%s has no backward", cls->name);
        return fail_backward(vm, ctx, cls->name);
    }
    lang_val fn = *bw;
    if (lang_is_obj(fn, &lang_staticmethod_type))
        fn = *(lang_val *)((char *)fn.u.o + sizeof(lang_obj));
    lang_val g, res;
    if (!lang_tensor_new(vm, nn_tensor_retain(dout), &g)) return fail_backward(vm, ctx, cls->name);
    lang_val args[2] = {r->ctx, g};
    lang_args a = {2, args, 0, NULL, NULL};
    bool ok = lang_call(vm, fn, &a, &res);
    lang_val_release(g);
    if (!ok) return fail_backward(vm, ctx, cls->name);
    /* One gradient per forward argument (a bare tensor when there is one). */
    int ng = lang_is_tuple(res) ? (int)lang_seq_len(res) : 1;
    if (ng != r->nargs) {
        lang_raise(vm, LANG_ERR_RUNTIME,
                   "function %sBackward returned an incorrect number of gradients (expected %d, "
                   "got %d)",
                   cls->name, r->nargs, ng);
        lang_val_release(res);
        return fail_backward(vm, ctx, cls->name);
    }
    for (int i = 0; i < n_in; i++) {
        if (!needs[i]) continue;
        lang_val gi = lang_is_tuple(res) ? lang_seq_items(res)[r->tensor_arg[i]] : res;
        nn_tensor *t = lang_tensor_of(gi);
        if (gi.kind == LANG_NONE) continue;
        if (!t) {
            lang_raise(vm, LANG_ERR_TYPE, "backward returned %s where a Tensor or None belongs",
                       lang_type_name(gi));
            lang_val_release(res);
            return fail_backward(vm, ctx, cls->name);
        }
        din[i] = nn_tensor_retain(t);
    }
    lang_val_release(res);
    return NN_OK;
}

/* Function.apply(*args), bound to the subclass as a classmethod. */
static bool f_apply(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1 || !lang_is_class(a->pos[0]))
        return lang_raise(vm, LANG_ERR_TYPE, "apply() is called on a Function subclass");
    lang_class *cls = lang_class_of_val(a->pos[0]);
    lang_val *fw = lang_class_lookup(cls, "forward");
    lang_class *ctx_cls = lang_builtin_class(vm, "FunctionCtx");
    if (!fw || !ctx_cls)
        return lang_raise(vm, LANG_ERR_RUNTIME, "%s must define forward(ctx, ...)", cls->name);
    lang_val fn = *fw;
    if (lang_is_obj(fn, &lang_staticmethod_type))
        fn = *(lang_val *)((char *)fn.u.o + sizeof(lang_obj));
    int nargs = a->n - 1;
    const lang_val *args = a->pos + 1;
    lang_val ctxv;
    if (!lang_instance_new(vm, ctx_cls, &ctxv)) return false;
    nn_ctx *ectx = lang_vm_ctx(vm);
    int ntens = 0;
    bool any_grad = false;
    lang_val needs;
    if (!lang_tuple_new(vm, nargs, &needs)) {
        lang_val_release(ctxv);
        return false;
    }
    for (int k = 0; k < nargs; k++) {
        nn_tensor *t = lang_tensor_of(args[k]);
        bool ng = t && t->requires_grad && ectx->grad_enabled;
        lang_seq_items(needs)[k] = lang_bool(ng);
        if (t) ntens++;
        any_grad |= ng;
    }
    bool ok = lang_setattr(vm, ctxv, "needs_input_grad", needs);
    lang_val_release(needs);
    if (!ok) {
        lang_val_release(ctxv);
        return false;
    }
    /* forward runs without recording, as in torch. */
    lang_val *pos = malloc(sizeof *pos * (size_t)(nargs + 1));
    if (!pos) {
        lang_val_release(ctxv);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    pos[0] = ctxv;
    memcpy(pos + 1, args, sizeof *pos * (size_t)nargs);
    bool was = nn_ctx_set_grad(ectx, false);
    lang_args fa = {nargs + 1, pos, a->nkw, a->kwnames, a->kw};
    lang_val result;
    ok = lang_call(vm, fn, &fa, &result);
    nn_ctx_set_grad(ectx, was);
    free(pos);
    if (!ok) {
        lang_val_release(ctxv);
        return false;
    }
    nn_tensor *rt = lang_tensor_of(result);
    if (!any_grad || !rt) { /* nothing to differentiate (or not a tensor) */
        lang_val_release(ctxv);
        *out = result;
        return true;
    }
    if (!vm->functions && !(vm->functions = calloc(1, sizeof *vm->functions))) {
        lang_val_release(ctxv);
        lang_val_release(result);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    fn_record *r = calloc(1, sizeof *r);
    nn_tensor **ins = malloc(sizeof *ins * (size_t)(ntens ? ntens : 1));
    if (r) r->tensor_arg = malloc(sizeof *r->tensor_arg * (size_t)(ntens ? ntens : 1));
    if (!r || !ins || !r->tensor_arg) {
        if (r) free(r->tensor_arg);
        free(r);
        free(ins);
        lang_val_release(ctxv);
        lang_val_release(result);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    char name[128];
    snprintf(name, sizeof name, "%sBackward", cls->name);
    r->c.name = nn_ctx_intern(ectx, name);
    r->c.output = nn_tensor_retain(rt);
    r->c.backward = custom_backward;
    r->vm = vm;
    r->cls = lang_val_retain(a->pos[0]);
    r->ctx = ctxv;
    r->nargs = nargs;
    for (int k = 0, j = 0; k < nargs; k++)
        if (lang_tensor_of(args[k])) {
            ins[j] = lang_tensor_of(args[k]);
            r->tensor_arg[j++] = k;
        }
    r->next = vm->functions->records;
    vm->functions->records = r;
    lang_val_release(result);
    nn_tensor *y = nn_custom_apply(ectx, ins, ntens, &r->c);
    free(ins);
    if (!y) return lang_raise_engine(vm);
    if (y->grad_fn && y->grad_fn->op == NN_OP_CUSTOM) {
        r->node = y->grad_fn;
        r->c.drop = record_dropped;
    }
    if (!lang_tensor_new(vm, y, out)) return false;
    lang_tensor_set_fn_name(*out, r->c.name);
    return true;
}

/* ---- FunctionCtx ---- */

static bool f_save_for_backward(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1 || !lang_is_instance(a->pos[0]))
        return lang_raise(vm, LANG_ERR_TYPE, "save_for_backward() needs ctx");
    for (int k = 1; k < a->n; k++)
        if (a->pos[k].kind != LANG_NONE && !lang_tensor_of(a->pos[k]))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "save_for_backward can only save variables, but argument %d is "
                              "of type %s",
                              k - 1, lang_type_name(a->pos[k]));
    lang_val t;
    if (!lang_tuple_pack(vm, a->n - 1, a->pos + 1, &t)) return false;
    bool ok = lang_setattr(vm, a->pos[0], "saved_tensors", t);
    lang_val_release(t);
    if (ok) *out = lang_none();
    return ok;
}

static bool f_mark_non_differentiable(lang_vm *vm, const lang_args *a, lang_val *out) {
    *out = lang_none();
    return true;
}

static const lang_builtin_def ctx_methods[] = {
    {"save_for_backward",
     f_save_for_backward,
     {"FunctionCtx.save_for_backward", "save_for_backward(*tensors)",
      "Keep tensors for backward (ctx.saved_tensors).", ""}},
    {"mark_non_differentiable",
     f_mark_non_differentiable,
     {"FunctionCtx.mark_non_differentiable", "mark_non_differentiable(*tensors)",
      "Accepted; nndb does not track it.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help apply_help = {
    "Function.apply", "apply(*args)",
    "Run forward(ctx, *args) and record one node whose backward is the class's "
    "backward(ctx, grad_output).",
    "y = MyReLU.apply(x)"};
static const lang_help function_help = {
    "Function", "class MyFn(torch.autograd.Function): forward(ctx, ...), backward(ctx, grad)",
    "A differentiable operation written by hand: static forward and backward methods, "
    "called with MyFn.apply(...); its backward becomes a node of the graph.",
    "class Square(Function):\n    @staticmethod\n    def forward(ctx, x):\n        "
    "ctx.save_for_backward(x)\n        return x * x\n    @staticmethod\n    def backward(ctx, "
    "g):\n        x, = ctx.saved_tensors\n        return 2 * x * g"};

bool lang_function_install(lang_vm *vm) {
    lang_class *object = lang_builtin_class(vm, "object");
    lang_val fcls, ccls, f, cm;
    if (!object) return lang_raise(vm, LANG_ERR_RUNTIME, "object class missing");
    if (!lang_class_new(vm, "Function", "torch.autograd.function.Function",
                        lang_obj_val(&object->hdr), &fcls))
        return false;
    lang_class *fc = lang_class_of_val(fcls);
    fc->flags |= LANG_CLASS_NATIVE | LANG_CLASS_FUNCTION;
    fc->help = &function_help;
    bool ok = lang_builtin_new(vm, f_apply, &apply_help, &f);
    lang_val *classmethod = ok ? lang_vm_global(vm, "classmethod") : NULL;
    if (ok && classmethod) {
        lang_args ca = {1, &f, 0, NULL, NULL};
        ok = lang_call(vm, *classmethod, &ca, &cm);
        if (ok) {
            ok = lang_ns_set(vm, &fc->dict, "apply", cm);
            lang_val_release(cm);
        }
    }
    if (ok) lang_val_release(f);
    if (ok) ok = lang_vm_set_builtin(vm, "Function", fcls);
    lang_val_release(fcls);
    if (!ok) return false;
    if (!lang_class_new(vm, "FunctionCtx", "torch.autograd.function.FunctionCtx",
                        lang_obj_val(&object->hdr), &ccls))
        return false;
    lang_class *cc = lang_class_of_val(ccls);
    cc->flags |= LANG_CLASS_NATIVE;
    for (const lang_builtin_def *d = ctx_methods; ok && d->name; d++) {
        lang_val m;
        ok = lang_builtin_new(vm, d->fn, &d->help, &m);
        if (ok) {
            ok = lang_ns_set(vm, &cc->dict, d->name, m);
            lang_val_release(m);
        }
    }
    /* Registered as a builtin class only (not a global name). */
    if (ok) ok = lang_class_register_builtin(vm, "FunctionCtx", ccls);
    lang_val_release(ccls);
    return ok;
}
