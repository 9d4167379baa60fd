/* lang_dist: torch.distributed's names over engine/nn_dist (MPI).
 *
 * The `dist` namespace (init_process_group, all_reduce, ReduceOp, ...; the
 * table lang_dist_functions is what `torch.distributed` registers once
 * modules land) and the dist family: DistributedDataParallel,
 * DistributedSampler, ZeroRedundancyOptimizer and dist_check.
 */
#include "lang_dist.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lang_builtins.h"
#include "lang_eval.h"
#include "lang_import.h"
#include "lang_nn.h"
#include "lang_vm.h"
#include "nn_ctx.h"
#include "nn_dist.h"
#include "nn_module.h"
#include "nn_optim.h"

#define CTX(vm) lang_vm_ctx(vm)

static bool tensor_arg(lang_vm *vm, lang_val v, const char *fn, const char *what, nn_tensor **out) {
    *out = lang_tensor_of(v);
    if (!*out)
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): %s must be a Tensor, not %s", fn, what,
                          lang_type_name(v));
    return true;
}

static bool rank_arg(lang_vm *vm, lang_val v, const char *what, int *out) {
    int64_t r = 0;
    if (!lang_to_int(vm, v, what, &r)) return false;
    *out = (int)r;
    return true;
}

static bool op_arg(lang_vm *vm, lang_val v, nn_dist_op *out) {
    int64_t k = 0;
    if (!lang_to_int(vm, v, "op", &k)) return false;
    if (k < 0 || k > NN_DIST_PRODUCT)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "op must be a ReduceOp (SUM, AVG, MAX, MIN, PRODUCT), got %lld",
                          (long long)k);
    *out = (nn_dist_op)k;
    return true;
}

static bool done(lang_vm *vm, nn_status st, lang_val *out) {
    if (st) return lang_raise_engine(vm);
    *out = lang_none();
    return true;
}

static bool in_place(nn_tensor *t) {
    t->storage->version++;
    return true;
}

/* ------------------------------------------------------------------ the process group */

static bool group_arg(lang_vm *vm, const char *fn, lang_val group);
static bool call_mode(lang_vm *vm, const char *fn, lang_val group, lang_val async_op, bool async_ok,
                      bool *async);
static bool work_val(lang_vm *vm, nn_dist_work *w, const char *what, lang_val *out);

static bool f_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val backend = lang_none(), timeout = lang_none(), init_method = lang_none(),
             ws = lang_int(-1), rank = lang_int(-1);
    if (!lang_parse_args(vm, a, "init_process_group",
                         "|backend,init_method,timeout,world_size,rank", &backend, &init_method,
                         &timeout, &ws, &rank))
        return false;
    const char *b = lang_is_obj(backend, &lang_str_type) ? lang_str_cstr(backend) : NULL;
    if (!b || strcmp(b, "mpi"))
        return lang_raise(vm, LANG_ERR_VALUE,
                          "init_process_group(backend=%s%s%s): nndb has one backend, \"mpi\" (Open "
                          "MPI; no gloo or nccl). Use init_process_group(backend=\"mpi\") and "
                          "launch with mpirun -np 2 nndb run script.nn",
                          b ? "\"" : "", b ? b : "None", b ? "\"" : "");
    double t = 0;
    if (timeout.kind != LANG_NONE && !lang_to_float(vm, timeout, "timeout (seconds)", &t))
        return false;
    if (timeout.kind != LANG_NONE && !(t > 0))
        return lang_raise(vm, LANG_ERR_VALUE, "init_process_group: timeout must be > 0 seconds");
    if (nn_dist_init(&CTX(vm)->err, t)) return lang_raise_engine(vm);
    int64_t want_ws = -1, want_rank = -1;
    if (!lang_to_int(vm, ws, "world_size", &want_ws) || !lang_to_int(vm, rank, "rank", &want_rank))
        return false;
    if (want_ws >= 0 && want_ws != nn_dist_world_size())
        return lang_raise(vm, LANG_ERR_VALUE,
                          "init_process_group: world_size=%lld but mpirun started %d processes",
                          (long long)want_ws, nn_dist_world_size());
    if (want_rank >= 0 && want_rank != nn_dist_rank())
        return lang_raise(vm, LANG_ERR_VALUE,
                          "init_process_group: rank=%lld but MPI says this process is rank %d",
                          (long long)want_rank, nn_dist_rank());
    *out = lang_none();
    return true;
}

static bool f_is_initialized(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "is_initialized", "")) return false;
    *out = lang_bool(nn_dist_is_initialized());
    return true;
}

static bool need_group(lang_vm *vm, const char *fn) {
    if (nn_dist_is_initialized()) return true;
    return lang_raise(vm, LANG_ERR_RUNTIME,
                      "%s(): Default process group has not been initialized, please make sure to "
                      "call init_process_group(backend=\"mpi\")",
                      fn);
}

static bool f_get_rank(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val g = lang_none();
    if (!lang_parse_args(vm, a, "get_rank", "|group", &g) || !group_arg(vm, "get_rank", g) ||
        !need_group(vm, "get_rank"))
        return false;
    *out = lang_int(nn_dist_rank());
    return true;
}

static bool f_get_world_size(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val g = lang_none();
    if (!lang_parse_args(vm, a, "get_world_size", "|group", &g) ||
        !group_arg(vm, "get_world_size", g) || !need_group(vm, "get_world_size"))
        return false;
    *out = lang_int(nn_dist_world_size());
    return true;
}

static bool f_get_backend(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "get_backend", "") || !need_group(vm, "get_backend")) return false;
    return lang_str_new(vm, "mpi", 3, out);
}

static bool f_barrier(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val group = lang_none(), av = lang_none(), ids = lang_none();
    bool async;
    if (!lang_parse_args(vm, a, "barrier", "|group,async_op,device_ids", &group, &av, &ids) ||
        !call_mode(vm, "barrier", group, av, true, &async))
        return false;
    if (async) return work_val(vm, nn_dist_barrier_async(CTX(vm)), "barrier", out);
    return done(vm, nn_dist_barrier(CTX(vm)), out);
}

static bool f_destroy(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "destroy_process_group", "")) return false;
    return done(vm, nn_dist_destroy(&CTX(vm)->err), out);
}

/* ------------------------------------------------------------------ collectives */

/* ---- process groups: the default one, by its names ----
 * nndb has one group, all the ranks: dist.group.WORLD, and new_group() of
 * every rank, are it. A subgroup is an error (MPI could do it with
 * MPI_Comm_split; nndb does not yet). */
typedef struct group_obj {
    lang_obj hdr;
} group_obj;

static bool group_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "ProcessGroup(WORLD: ranks 0..%d, backend \"mpi\")",
                    nn_dist_world_size() - 1);
    return true;
}

static const lang_type group_type = {.name = "ProcessGroup", .repr = group_repr};

static bool group_new(lang_vm *vm, lang_val *out) {
    group_obj *g = lang_obj_new(vm, &group_type, sizeof *g);
    if (!g) return false;
    *out = lang_obj_val(&g->hdr);
    return true;
}

static bool group_arg(lang_vm *vm, const char *fn, lang_val group) {
    if (group.kind == LANG_NONE || lang_is_obj(group, &group_type)) return true;
    return lang_raise(vm, LANG_ERR_TYPE,
                      "%s(): group must be None, dist.group.WORLD or a new_group() of every rank, "
                      "not %s",
                      fn, lang_type_name(group));
}

static bool f_new_group(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ranks = lang_none(), timeout = lang_none(), backend = lang_none(),
             options = lang_none();
    if (!lang_parse_args(vm, a, "new_group", "|ranks,timeout,backend,pg_options", &ranks, &timeout,
                         &backend, &options) ||
        !need_group(vm, "new_group"))
        return false;
    if (ranks.kind != LANG_NONE) {
        if (!lang_is_obj(ranks, &lang_list_type) && !lang_is_obj(ranks, &lang_tuple_type))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "new_group(): ranks must be a list of ints, not %s",
                              lang_type_name(ranks));
        int world = nn_dist_world_size();
        int64_t n = lang_seq_len(ranks);
        bool *seen = calloc((size_t)world, sizeof *seen);
        bool all = seen && n == world;
        for (int64_t i = 0; all && i < n; i++) {
            lang_val r = lang_seq_items(ranks)[i];
            all = r.kind == LANG_INT && r.u.i >= 0 && r.u.i < world && !seen[r.u.i];
            if (all) seen[r.u.i] = true;
        }
        free(seen);
        if (!all)
            return lang_raise(vm, LANG_ERR_VALUE,
                              "new_group(ranks=...): nndb has one process group, of all %d ranks; "
                              "subgroups are not supported (pass ranks=None, or every rank once)",
                              world);
    }
    return group_new(vm, out);
}

/* async_op=True: the call returns a Work handle (wait(), is_completed()). */
typedef struct work_obj {
    lang_obj hdr;
    nn_dist_work *w;
    nn_ctx *ctx;
    const char *what;
} work_obj;

static void work_free(lang_obj *o) {
    nn_dist_work_free(((work_obj *)o)->w);
}

static bool work_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    work_obj *w = (work_obj *)o;
    lang_buf_printf(out, "Work(%s, rank %d)", w->what, nn_dist_rank());
    return true;
}

static bool m_work_wait(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none();
    if (!lang_parse_args(vm, a, "wait", "|timeout", &tv)) return false;
    if (nn_dist_work_wait(CTX(vm), ((work_obj *)self.u.o)->w)) return lang_raise_engine(vm);
    *out = lang_bool(true);
    return true;
}

static bool m_work_is_completed(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "is_completed", "")) return false;
    int t = nn_dist_work_test(CTX(vm), ((work_obj *)self.u.o)->w);
    if (t < 0) return lang_raise_engine(vm);
    *out = lang_bool(t == 1);
    return true;
}

static const lang_method work_methods[] = {
    {"wait",
     m_work_wait,
     {"Work.wait", "wait(timeout=None)",
      "Block until the collective has finished on this rank (the group's timeout applies); "
      "returns True. The tensor holds the result afterwards.",
      "work.wait()"}},
    {"is_completed",
     m_work_is_completed,
     {"Work.is_completed", "is_completed()",
      "Whether the collective has finished (it drives MPI's progress once; does not block).",
      "work.is_completed()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_type work_type = {
    .name = "Work",
    .free = work_free,
    .repr = work_repr,
    .methods = work_methods,
};

static bool work_val(lang_vm *vm, nn_dist_work *w, const char *what, lang_val *out) {
    if (!w) return lang_raise_engine(vm);
    work_obj *o = lang_obj_new(vm, &work_type, sizeof *o);
    if (!o) {
        nn_dist_work_free(w);
        return false;
    }
    o->w = w;
    o->ctx = CTX(vm);
    o->what = what;
    *out = lang_obj_val(&o->hdr);
    return true;
}

/* group= and async_op=: *async says whether a Work handle is wanted;
 * [async_ok] false for the calls that have no nonblocking form here. */
static bool call_mode(lang_vm *vm, const char *fn, lang_val group, lang_val async_op, bool async_ok,
                      bool *async) {
    *async = false;
    if (!group_arg(vm, fn, group)) return false;
    if (async_op.kind != LANG_NONE && !lang_to_bool(vm, async_op, "async_op", async)) return false;
    if (*async && !async_ok)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "%s(): async_op=True is not supported here; nndb has it for all_reduce, "
                          "broadcast, barrier, all_gather_into_tensor and reduce_scatter_tensor",
                          fn);
    return true;
}

static bool f_all_reduce(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), opv = lang_int(NN_DIST_SUM), group = lang_none(),
             async_op = lang_bool(false);
    nn_tensor *t = NULL;
    nn_dist_op op = NN_DIST_SUM;
    bool async;
    if (!lang_parse_args(vm, a, "all_reduce", "tensor|op,group,async_op", &tv, &opv, &group,
                         &async_op) ||
        !call_mode(vm, "all_reduce", group, async_op, true, &async) ||
        !tensor_arg(vm, tv, "all_reduce", "tensor", &t) || !op_arg(vm, opv, &op))
        return false;
    if (async)
        return in_place(t) &&
               work_val(vm, nn_dist_all_reduce_async(CTX(vm), t, op), "all_reduce", out);
    return in_place(t) && done(vm, nn_dist_all_reduce(CTX(vm), t, op), out);
}

static bool f_broadcast(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), srcv = lang_none(), group = lang_none(), av = lang_none();
    nn_tensor *t = NULL;
    int src = 0;
    bool async;
    if (!lang_parse_args(vm, a, "broadcast", "tensor,src|group,async_op", &tv, &srcv, &group,
                         &av) ||
        !call_mode(vm, "broadcast", group, av, true, &async) ||
        !tensor_arg(vm, tv, "broadcast", "tensor", &t) || !rank_arg(vm, srcv, "src", &src))
        return false;
    if (async)
        return in_place(t) &&
               work_val(vm, nn_dist_broadcast_async(CTX(vm), t, src), "broadcast", out);
    return in_place(t) && done(vm, nn_dist_broadcast(CTX(vm), t, src), out);
}

static bool f_all_gather_into(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ov = lang_none(), iv = lang_none(), group = lang_none(), av = lang_none();
    nn_tensor *o, *in;
    bool async;
    if (!lang_parse_args(vm, a, "all_gather_into_tensor",
                         "output_tensor,input_tensor|group,async_op", &ov, &iv, &group, &av) ||
        !call_mode(vm, "all_gather_into_tensor", group, av, true, &async) ||
        !tensor_arg(vm, ov, "all_gather_into_tensor", "output_tensor", &o) ||
        !tensor_arg(vm, iv, "all_gather_into_tensor", "input_tensor", &in))
        return false;
    if (async)
        return in_place(o) && work_val(vm, nn_dist_all_gather_into_async(CTX(vm), o, in),
                                       "all_gather_into_tensor", out);
    return in_place(o) && done(vm, nn_dist_all_gather_into(CTX(vm), o, in), out);
}

static bool f_reduce_scatter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ov = lang_none(), iv = lang_none(), opv = lang_int(NN_DIST_SUM), group = lang_none(),
             av = lang_none();
    nn_tensor *o, *in;
    nn_dist_op op = NN_DIST_SUM;
    bool async;
    if (!lang_parse_args(vm, a, "reduce_scatter_tensor", "output,input|op,group,async_op", &ov, &iv,
                         &opv, &group, &av) ||
        !call_mode(vm, "reduce_scatter_tensor", group, av, true, &async) ||
        !tensor_arg(vm, ov, "reduce_scatter_tensor", "output", &o) ||
        !tensor_arg(vm, iv, "reduce_scatter_tensor", "input", &in) || !op_arg(vm, opv, &op))
        return false;
    if (async)
        return in_place(o) && work_val(vm, nn_dist_reduce_scatter_async(CTX(vm), o, in, op),
                                       "reduce_scatter_tensor", out);
    return in_place(o) && done(vm, nn_dist_reduce_scatter(CTX(vm), o, in, op), out);
}

static bool f_reduce(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), dv = lang_none(), opv = lang_int(NN_DIST_SUM), group = lang_none(),
             av = lang_none();
    nn_tensor *t = NULL;
    nn_dist_op op = NN_DIST_SUM;
    int dst = 0;
    bool async;
    if (!lang_parse_args(vm, a, "reduce", "tensor,dst|op,group,async_op", &tv, &dv, &opv, &group,
                         &av) ||
        !call_mode(vm, "reduce", group, av, false, &async) ||
        !tensor_arg(vm, tv, "reduce", "tensor", &t) || !rank_arg(vm, dv, "dst", &dst) ||
        !op_arg(vm, opv, &op))
        return false;
    return in_place(t) && done(vm, nn_dist_reduce(CTX(vm), t, dst, op), out);
}

/* Copy [flat]'s blocks into the tensors of [list], or the list's tensors
 * into [flat] ([into_list] false). Each must have [block] elements. */
static bool list_blocks(lang_vm *vm, const char *fn, lang_val list, nn_tensor *like,
                        nn_tensor **flat, bool into_list) {
    if (!lang_is_obj(list, &lang_list_type) && !lang_is_obj(list, &lang_tuple_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): expected a list of tensors, got %s", fn,
                          lang_type_name(list));
    int64_t n = lang_seq_len(list), block = nn_tensor_numel(like);
    if (n != nn_dist_world_size())
        return lang_raise(vm, LANG_ERR_VALUE,
                          "%s(): the list must hold world_size (%d) tensors, it holds %lld", fn,
                          nn_dist_world_size(), (long long)n);
    nn_ctx *ctx = CTX(vm);
    if (!*flat) {
        int64_t total = block * n;
        *flat = nn_tensor_empty(ctx, like->dtype, 1, &total);
        if (!*flat) return lang_raise_engine(vm);
    }
    size_t es = nn_dtype_size(like->dtype);
    for (int64_t k = 0; k < n; k++) {
        nn_tensor *t = lang_tensor_of(lang_seq_items(list)[k]);
        if (!t || t->dtype != like->dtype || nn_tensor_numel(t) != block ||
            !nn_tensor_is_contiguous(t))
            return lang_raise(vm, LANG_ERR_SHAPE,
                              "%s(): item %lld of the list must be a contiguous %s tensor of %lld "
                              "elements, like the input",
                              fn, (long long)k, nn_dtype_name(like->dtype), (long long)block);
        char *at = (char *)nn_tensor_data(*flat) + (size_t)(k * block) * es;
        if (into_list) {
            memcpy(nn_tensor_data(t), at, (size_t)block * es);
            in_place(t);
        } else {
            memcpy(at, nn_tensor_data(t), (size_t)block * es);
        }
    }
    return true;
}

static bool f_all_gather(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val lv = lang_none(), tv = lang_none(), group = lang_none(), av = lang_none();
    nn_tensor *t, *flat = NULL;
    bool async;
    if (!lang_parse_args(vm, a, "all_gather", "tensor_list,tensor|group,async_op", &lv, &tv, &group,
                         &av) ||
        !call_mode(vm, "all_gather", group, av, false, &async) ||
        !tensor_arg(vm, tv, "all_gather", "tensor", &t) || !need_group(vm, "all_gather"))
        return false;
    bool ok = list_blocks(vm, "all_gather", lv, t, &flat, false);
    if (ok && nn_dist_all_gather_into(CTX(vm), flat, t)) ok = lang_raise_engine(vm);
    if (ok) ok = list_blocks(vm, "all_gather", lv, t, &flat, true);
    nn_tensor_release(flat);
    *out = lang_none();
    return ok;
}

static bool f_gather(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), lv = lang_none(), dv = lang_int(0), group = lang_none(),
             av = lang_none();
    nn_tensor *t, *flat = NULL;
    int dst = 0;
    bool async;
    if (!lang_parse_args(vm, a, "gather", "tensor|gather_list,dst,group,async_op", &tv, &lv, &dv,
                         &group, &av) ||
        !call_mode(vm, "gather", group, av, false, &async) ||
        !tensor_arg(vm, tv, "gather", "tensor", &t) || !rank_arg(vm, dv, "dst", &dst) ||
        !need_group(vm, "gather"))
        return false;
    bool here = nn_dist_rank() == dst, ok = true;
    if (here && lv.kind != LANG_NONE) ok = list_blocks(vm, "gather", lv, t, &flat, false);
    if (ok && nn_dist_gather(CTX(vm), here ? flat : NULL, t, dst)) ok = lang_raise_engine(vm);
    if (ok && here) ok = list_blocks(vm, "gather", lv, t, &flat, true);
    nn_tensor_release(flat);
    *out = lang_none();
    return ok;
}

static bool f_scatter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), lv = lang_none(), sv = lang_int(0), group = lang_none(),
             av = lang_none();
    nn_tensor *t, *flat = NULL;
    int src = 0;
    bool async;
    if (!lang_parse_args(vm, a, "scatter", "tensor|scatter_list,src,group,async_op", &tv, &lv, &sv,
                         &group, &av) ||
        !call_mode(vm, "scatter", group, av, false, &async) ||
        !tensor_arg(vm, tv, "scatter", "tensor", &t) || !rank_arg(vm, sv, "src", &src) ||
        !need_group(vm, "scatter"))
        return false;
    bool here = nn_dist_rank() == src, ok = true;
    if (here && lv.kind != LANG_NONE) ok = list_blocks(vm, "scatter", lv, t, &flat, false);
    if (ok && nn_dist_scatter(CTX(vm), t, here ? flat : NULL, src)) ok = lang_raise_engine(vm);
    if (ok) in_place(t);
    nn_tensor_release(flat);
    *out = lang_none();
    return ok;
}

static bool f_send(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), dv = lang_none(), tagv = lang_int(0), group = lang_none();
    nn_tensor *t = NULL;
    int dst = 0, tag = 0;
    bool async;
    if (!lang_parse_args(vm, a, "send", "tensor,dst|group,tag", &tv, &dv, &group, &tagv) ||
        !call_mode(vm, "send", group, lang_none(), false, &async) ||
        !tensor_arg(vm, tv, "send", "tensor", &t) || !rank_arg(vm, dv, "dst", &dst) ||
        !rank_arg(vm, tagv, "tag", &tag))
        return false;
    return done(vm, nn_dist_send(CTX(vm), t, dst, tag), out);
}

static bool f_recv(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv = lang_none(), sv = lang_none(), tagv = lang_int(0), group = lang_none();
    nn_tensor *t = NULL;
    int src = 0, tag = 0;
    bool async;
    if (!lang_parse_args(vm, a, "recv", "tensor|src,group,tag", &tv, &sv, &group, &tagv) ||
        !call_mode(vm, "recv", group, lang_none(), false, &async) ||
        !tensor_arg(vm, tv, "recv", "tensor", &t))
        return false;
    if (sv.kind == LANG_NONE)
        return lang_raise(vm, LANG_ERR_VALUE, "recv(): nndb needs src= (the sending rank)");
    if (!rank_arg(vm, sv, "src", &src) || !rank_arg(vm, tagv, "tag", &tag)) return false;
    if (nn_dist_recv(CTX(vm), t, src, tag)) return lang_raise_engine(vm);
    in_place(t);
    *out = lang_int(src);
    return true;
}

#define H(name, sig, doc, ex)                                                                      \
    { "dist." name, sig, doc, ex }

const lang_builtin_def lang_dist_functions[] = {
    {"init_process_group", f_init,
     H("init_process_group", "init_process_group(backend=\"mpi\", timeout=None)",
       "Join the process group mpirun started: rank and world size come from MPI (Open MPI, "
       "loaded now). timeout is in seconds (default 300, or NNDB_DIST_TIMEOUT): a collective that "
       "waits longer for another rank fails instead of hanging.",
       "dist.init_process_group(backend=\"mpi\")")},
    {"is_initialized", f_is_initialized,
     H("is_initialized", "is_initialized()", "True after init_process_group.",
       "dist.is_initialized()")},
    {"get_rank", f_get_rank,
     H("get_rank", "get_rank()", "This process's rank (0 .. world_size-1).", "dist.get_rank()")},
    {"get_world_size", f_get_world_size,
     H("get_world_size", "get_world_size()", "The number of processes.", "dist.get_world_size()")},
    {"get_backend", f_get_backend,
     H("get_backend", "get_backend()", "\"mpi\".", "dist.get_backend()")},
    {"barrier", f_barrier,
     H("barrier", "barrier(group=None, async_op=False)", "Wait until every rank gets here.",
       "dist.barrier()")},
    {"new_group", f_new_group,
     H("new_group", "new_group(ranks=None)",
       "A process group: nndb has one, of every rank (dist.group.WORLD); ranks=None or every "
       "rank gives it, a subgroup is an error.",
       "g = dist.new_group()")},
    {"destroy_process_group", f_destroy,
     H("destroy_process_group", "destroy_process_group()",
       "Leave the process group (MPI_Finalize); nndb run also does it at the end of a script.",
       "dist.destroy_process_group()")},
    {"all_reduce", f_all_reduce,
     H("all_reduce", "all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False)",
       "Reduce tensor across ranks, in place, on every rank (SUM, AVG, MAX, MIN, PRODUCT). "
       "async_op=True returns a Work handle (wait(), is_completed()) of a nonblocking MPI "
       "all-reduce.",
       "dist.all_reduce(t, op=dist.ReduceOp.SUM)")},
    {"broadcast", f_broadcast,
     H("broadcast", "broadcast(tensor, src, group=None, async_op=False)",
       "Copy src's tensor into every rank's, in place (async_op=True: a Work handle).",
       "dist.broadcast(t, src=0)")},
    {"all_gather", f_all_gather,
     H("all_gather", "all_gather(tensor_list, tensor)",
       "Fill tensor_list[r] with rank r's tensor, on every rank.", "dist.all_gather(parts, t)")},
    {"all_gather_into_tensor", f_all_gather_into,
     H("all_gather_into_tensor", "all_gather_into_tensor(output_tensor, input_tensor)",
       "Concatenate every rank's input_tensor into output_tensor (world_size times larger).",
       "dist.all_gather_into_tensor(out, t)")},
    {"reduce_scatter_tensor", f_reduce_scatter,
     H("reduce_scatter_tensor", "reduce_scatter_tensor(output, input, op=ReduceOp.SUM)",
       "Reduce input (world_size blocks) across ranks; rank r gets block r in output.",
       "dist.reduce_scatter_tensor(out, t)")},
    {"reduce", f_reduce,
     H("reduce", "reduce(tensor, dst, op=ReduceOp.SUM)",
       "Reduce tensor across ranks into dst's tensor (in place there).", "dist.reduce(t, dst=0)")},
    {"gather", f_gather,
     H("gather", "gather(tensor, gather_list=None, dst=0)",
       "dst's gather_list[r] gets rank r's tensor.", "dist.gather(t, parts, dst=0)")},
    {"scatter", f_scatter,
     H("scatter", "scatter(tensor, scatter_list=None, src=0)",
       "Rank r's tensor gets src's scatter_list[r].", "dist.scatter(t, parts, src=0)")},
    {"send", f_send,
     H("send", "send(tensor, dst, tag=0)", "Send tensor to rank dst (blocking).",
       "dist.send(t, dst=1)")},
    {"recv", f_recv,
     H("recv", "recv(tensor, src, tag=0)",
       "Receive into tensor from rank src (blocking); returns src.", "dist.recv(t, src=0)")},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* ReduceOp's members, in nn_dist_op order. */
static const char *const reduce_ops[] = {"SUM", "AVG", "MAX", "MIN", "PRODUCT", NULL};

bool lang_dist_fill_module(lang_vm *vm, lang_val ns,
                           bool (*set)(lang_vm *, lang_val, const char *, lang_val)) {
    bool ok = true;
    for (const lang_builtin_def *d = lang_dist_functions; ok && d->name; d++) {
        lang_val f;
        ok = lang_builtin_new(vm, d->fn, &d->help, &f);
        if (ok) ok = set(vm, ns, d->name, f);
        if (ok) lang_val_release(f);
    }
    lang_val ro;
    if (!ok || !lang_record_new(vm, "ReduceOp", &ro)) return false;
    for (int i = 0; ok && reduce_ops[i]; i++)
        ok = lang_record_set(vm, ro, reduce_ops[i], lang_int(i));
    if (ok) ok = set(vm, ns, "ReduceOp", ro);
    lang_val_release(ro);
    /* dist.group.WORLD, the one process group. */
    lang_val grp = lang_none(), world = lang_none();
    if (ok) ok = lang_record_new(vm, "group", &grp);
    if (ok) ok = group_new(vm, &world);
    if (ok) ok = lang_record_set(vm, grp, "WORLD", world);
    if (ok) ok = set(vm, ns, "group", grp);
    lang_val_release(world);
    lang_val_release(grp);
    return ok;
}

static bool dist_module_init(lang_vm *vm, lang_val mod) {
    return lang_dist_fill_module(vm, mod, lang_module_set);
}

/* import torch.distributed as dist; torch.nn.parallel.DistributedDataParallel;
 * torch.distributed.optim.ZeroRedundancyOptimizer. (torch.utils.data finds
 * DistributedSampler by itself: PyTorch has the name there.) */
static const lang_module_def torch_distributed_def = {
    .name = "torch.distributed",
    .doc = "torch.distributed over MPI: init_process_group(backend=\"mpi\"), collectives, "
           "ReduceOp (docs/distributed.md).",
    .init = dist_module_init,
};
static const char *const parallel_names[] = {"DistributedDataParallel", NULL};
static const lang_module_def torch_nn_parallel_def = {
    .name = "torch.nn.parallel",
    .doc = "DistributedDataParallel.",
    .builtins = parallel_names,
};
static const char *const dist_optim_names[] = {"ZeroRedundancyOptimizer", NULL};
static const lang_module_def torch_distributed_optim_def = {
    .name = "torch.distributed.optim",
    .doc = "ZeroRedundancyOptimizer (ZeRO stage 1).",
    .builtins = dist_optim_names,
};

bool lang_dist_install(lang_vm *vm) {
    lang_val ns;
    if (!lang_record_new(vm, "torch.distributed", &ns)) return false;
    bool ok = lang_dist_fill_module(vm, ns, lang_record_set);
    if (ok) ok = lang_vm_set_builtin(vm, "dist", ns);
    lang_val_release(ns);
    return ok && lang_import_add(vm, &torch_distributed_def) &&
           lang_import_add(vm, &torch_nn_parallel_def) &&
           lang_import_add(vm, &torch_distributed_optim_def);
}

/* ------------------------------------------------------------------ parameters of a model */

typedef struct plist {
    nn_tensor **p;
    int n;
    nn_state names; /* named_parameters, for dist_check's message */
} plist;

static void plist_free(plist *l) {
    free(l->p);
    nn_state_free(&l->names);
}

static bool named_of(lang_vm *vm, lang_val v, const char *meth, const char *fn, plist *out);

/* The parameters of a Module, or of a list of tensors. */
static bool params_of(lang_vm *vm, lang_val v, const char *fn, plist *out) {
    memset(out, 0, sizeof *out);
    nn_state_init(&out->names);
    nn_module *m = lang_module_of(v);
    if (m) {
        if (nn_module_parameters(CTX(vm), m, &out->p, &out->n) ||
            nn_module_named_parameters(CTX(vm), m, &out->names))
            return plist_free(out), lang_raise_engine(vm);
        return true;
    }
    if (lang_is_obj(v, &lang_list_type) || lang_is_obj(v, &lang_tuple_type)) {
        int64_t n = lang_seq_len(v);
        out->p = calloc((size_t)(n ? n : 1), sizeof *out->p);
        if (!out->p) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int64_t i = 0; i < n; i++) {
            nn_tensor *t = lang_tensor_of(lang_seq_items(v)[i]);
            if (!t) {
                plist_free(out);
                return lang_raise(vm, LANG_ERR_TYPE, "%s(): item %lld is %s, not a Tensor", fn,
                                  (long long)i, lang_type_name(lang_seq_items(v)[i]));
            }
            out->p[out->n++] = t;
        }
        return true;
    }
    /* A user's nn.Module subclass: its named_parameters(). */
    return named_of(vm, v, "named_parameters", fn, out);
}

/* The (name, Tensor) pairs a user module's [method] gives. */
static bool named_of(lang_vm *vm, lang_val v, const char *meth, const char *fn, plist *out) {
    memset(out, 0, sizeof *out);
    nn_state_init(&out->names);
    lang_val method = lang_none(), list = lang_none(), it = lang_none();
    if (v.kind != LANG_OBJ || !lang_getattr(vm, v, meth, &method)) {
        lang_vm_clear_error(vm);
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s(): expected a Module or a list of parameters, got %s", fn,
                          lang_type_name(v));
    }
    lang_args none = {0, NULL, 0, NULL, NULL};
    bool ok = lang_call(vm, method, &none, &list) && lang_iter(vm, list, &it);
    int cap = 0;
    while (ok) {
        lang_val item;
        bool end = false;
        if (!lang_next(vm, it, &item, &end)) {
            ok = false;
            break;
        }
        if (end) break;
        lang_val *pair = item.kind == LANG_OBJ && (lang_is_obj(item, &lang_tuple_type) ||
                                                   lang_is_obj(item, &lang_list_type))
                             ? lang_seq_items(item)
                             : NULL;
        nn_tensor *t = pair && lang_seq_len(item) == 2 ? lang_tensor_of(pair[1]) : NULL;
        if (!t || !lang_is_obj(pair[0], &lang_str_type)) {
            lang_val_release(item);
            ok = lang_raise(vm, LANG_ERR_TYPE, "%s(): %s() must give (name, Tensor) pairs", fn,
                            meth);
            break;
        }
        if (out->n == cap) {
            cap = cap ? cap * 2 : 16;
            nn_tensor **grown = realloc(out->p, sizeof *grown * (size_t)cap);
            if (!grown) {
                lang_val_release(item);
                ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
                break;
            }
            out->p = grown;
        }
        out->p[out->n++] = t; /* kept alive by the module */
        if (nn_state_add(CTX(vm), &out->names, lang_str_cstr(pair[0]), t))
            ok = lang_raise_engine(vm);
        lang_val_release(item);
    }
    lang_val_release(it);
    lang_val_release(list);
    lang_val_release(method);
    if (!ok) plist_free(out);
    return ok;
}

/* ------------------------------------------------------------------ DistributedDataParallel */

typedef struct ddp_obj {
    lang_obj hdr;
    lang_val module;
    nn_dist_ddp *ddp;
    nn_ctx *ctx;
    bool broadcast_buffers;
    bool forward_sync; /* PyTorch's require_forward_param_sync */
} ddp_obj;

static bool v_has(lang_vm *vm, lang_val v, const char *name, lang_val *out) {
    if (v.kind != LANG_OBJ) return false;
    if (lang_getattr(vm, v, name, out)) return true;
    lang_vm_clear_error(vm);
    return false;
}

/* The buffers of [mv] (the state_dict entries of a builtin module that are
 * not parameters, or a user module's named_buffers()), looked up afresh
 * each time as PyTorch's _assign_modules_buffers does: a buffer may have
 * been reassigned. *out is malloc'ed; the tensors are the module's. */
static bool buffers_of(lang_vm *vm, lang_val mv, const plist *pl, nn_tensor ***out, int *n) {
    nn_ctx *ctx = CTX(vm);
    nn_module *m = lang_module_of(mv);
    *out = NULL;
    *n = 0;
    if (m) {
        nn_state sd;
        nn_state_init(&sd);
        bool ok = !nn_module_state_dict(ctx, m, &sd) || lang_raise_engine(vm);
        if (ok) {
            *out = calloc((size_t)sd.n + 1, sizeof **out);
            ok = *out || lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        }
        for (int i = 0; ok && i < sd.n; i++) {
            bool is_param = false;
            for (int j = 0; j < pl->n && !is_param; j++)
                is_param = pl->p[j] == sd.entries[i].tensor;
            if (!is_param) (*out)[(*n)++] = sd.entries[i].tensor;
        }
        nn_state_free(&sd);
        return ok;
    }
    lang_val probe = lang_none();
    if (v_has(vm, mv, "named_buffers", &probe)) {
        lang_val_release(probe);
        plist bl;
        if (!named_of(vm, mv, "named_buffers", "DistributedDataParallel", &bl)) return false;
        *out = bl.p;
        *n = bl.n;
        bl.p = NULL;
        plist_free(&bl);
        return true;
    }
    return true; /* a list of tensors, or a module without buffers */
}

typedef struct nosync_obj {
    lang_obj hdr;
    lang_val ddp;
    bool prev;
} nosync_obj;

static const lang_type ddp_type, nosync_type;

static void ddp_free(lang_obj *o) {
    ddp_obj *d = (ddp_obj *)o;
    nn_dist_ddp_free(d->ctx, d->ddp);
    lang_val_release(d->module);
}

static bool ddp_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    ddp_obj *d = (ddp_obj *)o;
    lang_buf_printf(out,
                    "DistributedDataParallel(rank %d of %d, %d bucket%s, module=", nn_dist_rank(),
                    nn_dist_world_size(), nn_dist_ddp_num_buckets(d->ddp),
                    nn_dist_ddp_num_buckets(d->ddp) == 1 ? "" : "s");
    if (!lang_repr(vm, d->module, out)) return false;
    lang_buf_puts(out, ")");
    return true;
}

/* forward: fail if the last backward left parameters unreduced (PyTorch's
 * error), broadcast rank 0's buffers (broadcast_buffers=True, when the
 * last forward was one that syncs: PyTorch's rule), then the module. */
static bool ddp_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    ddp_obj *d = (ddp_obj *)o;
    nn_ctx *ctx = CTX(vm);
    if (nn_dist_ddp_pre_forward(ctx, d->ddp)) return lang_raise_engine(vm);
    if (d->broadcast_buffers && d->forward_sync) {
        /* The parameters are needed only to tell a builtin module's
         * buffers from its state_dict. */
        plist pl;
        memset(&pl, 0, sizeof pl);
        nn_state_init(&pl.names);
        nn_tensor **bufs = NULL;
        int nb = 0;
        if (lang_module_of(d->module) && !params_of(vm, d->module, "DistributedDataParallel", &pl))
            return false;
        bool ok = buffers_of(vm, d->module, &pl, &bufs, &nb);
        if (ok && nb && nn_dist_sync_buffers(ctx, bufs, nb)) ok = lang_raise_engine(vm);
        free(bufs);
        plist_free(&pl);
        if (!ok) return false;
    }
    bool ok = lang_vm_call(vm, d->module, a, out);
    d->forward_sync = ctx->grad_enabled && nn_dist_ddp_sync(d->ddp);
    return ok;
}

static bool ddp_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    ddp_obj *d = (ddp_obj *)o;
    *found = true;
    if (!strcmp(name, "module")) {
        *out = lang_val_retain(d->module);
        return true;
    }
    if (!strcmp(name, "buckets")) {
        /* Parameter indices of each bucket, in launch order. */
        int nb = nn_dist_ddp_num_buckets(d->ddp);
        if (!lang_list_new(vm, 0, out)) return false;
        for (int b = 0; b < nb; b++) {
            int n;
            const int *idx = nn_dist_ddp_bucket(d->ddp, b, &n);
            lang_val l;
            if (!lang_list_new(vm, 0, &l)) return false;
            for (int k = 0; k < n; k++) lang_list_append(vm, l, lang_int(idx[k]));
            lang_list_append(vm, *out, l);
            lang_val_release(l);
        }
        return true;
    }
    if (!strcmp(name, "started_early")) {
        *out = lang_int(nn_dist_ddp_started_early(d->ddp));
        return true;
    }
    if (!strcmp(name, "no_sync")) {
        *found = false; /* the method */
        return true;
    }
    /* Everything else is the wrapped module's (parameters(), train(), ...). */
    return lang_getattr(vm, d->module, name, out);
}

static bool m_no_sync(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "no_sync", "")) return false;
    nosync_obj *n = lang_obj_new(vm, &nosync_type, sizeof *n);
    if (!n) return false;
    n->ddp = lang_val_retain(self);
    *out = lang_obj_val(&n->hdr);
    return true;
}

static const char *const ddp_field_names[] = {"module", "buckets", "started_early", NULL};
static const char *const *ddp_fields(lang_obj *o) {
    (void)o;
    return ddp_field_names;
}

static const lang_method ddp_methods[] = {
    {"no_sync",
     m_no_sync,
     {"DistributedDataParallel.no_sync", "no_sync()",
      "A context: backward() inside it accumulates gradients locally without all-reducing them "
      "(gradient accumulation); the first backward after it averages the sum.",
      "with ddp.no_sync(): loss.backward()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help ddp_help = {
    "DistributedDataParallel",
    "DistributedDataParallel(module, broadcast_buffers=True, bucket_cap_mb=25, "
    "find_unused_parameters=False, gradient_as_sum=False)",
    "Data parallelism: broadcasts rank 0's parameters and buffers now (and the buffers again "
    "before each forward, with broadcast_buffers), then averages gradients across ranks during "
    "backward(), in buckets (reverse order of the parameters) whose all-reduce starts as soon "
    "as the bucket's gradients are ready, overlapping the rest of the backward pass. "
    "find_unused_parameters=True lets a pass leave parameters without a gradient (PyTorch's "
    "rule). gradient_as_sum=True (nndb's, for the drill) only sums them.",
    "ddp = DistributedDataParallel(model)"};

static const lang_type ddp_type = {
    .name = "DistributedDataParallel",
    .free = ddp_free,
    .repr = ddp_repr,
    .getattr = ddp_getattr,
    .call = ddp_call,
    .fields = ddp_fields,
    .methods = ddp_methods,
    .help = &ddp_help,
};

static void nosync_free(lang_obj *o) {
    lang_val_release(((nosync_obj *)o)->ddp);
}

static bool m_nosync_enter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    nosync_obj *n = (nosync_obj *)self.u.o;
    ddp_obj *d = (ddp_obj *)n->ddp.u.o;
    n->prev = nn_dist_ddp_sync(d->ddp);
    nn_dist_ddp_set_sync(d->ddp, false);
    *out = lang_none();
    return true;
}

static bool m_nosync_exit(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    nosync_obj *n = (nosync_obj *)self.u.o;
    nn_dist_ddp_set_sync(((ddp_obj *)n->ddp.u.o)->ddp, n->prev);
    *out = lang_bool(false);
    return true;
}

static const lang_method nosync_methods[] = {
    {"__enter__", m_nosync_enter, {"no_sync.__enter__", "__enter__()", "Stop syncing.", ""}},
    {"__exit__", m_nosync_exit, {"no_sync.__exit__", "__exit__(*exc)", "Sync again.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_type nosync_type = {
    .name = "no_sync",
    .free = nosync_free,
    .methods = nosync_methods,
};

static bool f_ddp(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val mv = lang_none(), cap = lang_float(25), as_sum = lang_bool(false), dev = lang_none(),
             outdev = lang_none(), bb = lang_bool(true), pg = lang_none(), fu = lang_bool(false),
             sg = lang_bool(false), dim = lang_int(0), cr = lang_none(), view = lang_none();
    /* PyTorch's order; device_ids, output_device, dim, check_reduction and
     * gradient_as_bucket_view change nothing on CPU. */
    if (!lang_parse_args(vm, a, "DistributedDataParallel",
                         "module|device_ids,output_device,dim,broadcast_buffers,process_group,"
                         "bucket_cap_mb,find_unused_parameters,check_reduction,"
                         "gradient_as_bucket_view,static_graph,gradient_as_sum",
                         &mv, &dev, &outdev, &dim, &bb, &pg, &cap, &fu, &cr, &view, &sg, &as_sum))
        return false;
    double mb;
    bool sum_only, bcast_bufs, find_unused, static_graph;
    if (!lang_to_float(vm, cap, "bucket_cap_mb", &mb) ||
        !lang_to_bool(vm, as_sum, "gradient_as_sum", &sum_only) ||
        !lang_to_bool(vm, bb, "broadcast_buffers", &bcast_bufs) ||
        !lang_to_bool(vm, fu, "find_unused_parameters", &find_unused) ||
        !lang_to_bool(vm, sg, "static_graph", &static_graph) ||
        !group_arg(vm, "DistributedDataParallel", pg))
        return false;
    if (static_graph)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "DistributedDataParallel(static_graph=True) is not supported");
    nn_module *m = lang_module_of(mv);
    if (!m && (lang_is_obj(mv, &lang_list_type) || lang_is_obj(mv, &lang_tuple_type)))
        return lang_raise(vm, LANG_ERR_TYPE, "DistributedDataParallel(): expected a Module, got %s",
                          lang_type_name(mv));
    if (!need_group(vm, "DistributedDataParallel")) return false;
    nn_ctx *ctx = CTX(vm);
    plist pl;
    if (!params_of(vm, mv, "DistributedDataParallel", &pl)) return false;
    /* Buffers are broadcast at wrap time whatever broadcast_buffers says
     * (PyTorch's _sync_module_states). */
    nn_tensor **bufs = NULL;
    int nbuf = 0;
    bool ok = buffers_of(vm, mv, &pl, &bufs, &nbuf);
    nn_dist_ddp *d = NULL;
    if (ok) {
        d = nn_dist_ddp_new(ctx, pl.p, pl.n, bufs, nbuf, mb * 1024 * 1024);
        if (!d) ok = lang_raise_engine(vm);
    }
    free(bufs);
    plist_free(&pl);
    if (!ok) return false;
    nn_dist_ddp_set_average(d, !sum_only);
    nn_dist_ddp_set_find_unused(d, find_unused);
    ddp_obj *o = lang_obj_new(vm, &ddp_type, sizeof *o);
    if (!o) {
        nn_dist_ddp_free(ctx, d);
        return false;
    }
    o->module = lang_val_retain(mv);
    o->ddp = d;
    o->ctx = ctx;
    o->broadcast_buffers = bcast_bufs;
    /* The buffers were just broadcast: the first forward need not again. */
    o->forward_sync = false;
    *out = lang_obj_val(&o->hdr);
    return true;
}

/* ------------------------------------------------------------------ DistributedSampler */

typedef struct sampler_obj {
    lang_obj hdr;
    int64_t len, epoch, seed;
    int replicas, rank;
    bool shuffle, drop_last;
} sampler_obj;

typedef struct sampler_iter {
    lang_obj hdr;
    int64_t *idx;
    int64_t n, at;
} sampler_iter;

static const lang_type sampler_type, sampler_iter_type;

/* torch.Generator().manual_seed(seed + epoch): a fresh generator per
 * iteration, as PyTorch's DistributedSampler.__iter__ makes one. */
static bool sampler_iter_new(lang_vm *vm, sampler_obj *s, lang_val *out) {
    nn_rng rng;
    nn_rng_seed(&rng, (uint64_t)(s->seed + s->epoch));
    nn_dist_sampler cfg = {s->len, s->replicas, s->rank, s->shuffle, s->drop_last};
    int64_t n = 0;
    int64_t *idx = NULL;
    if (nn_dist_sampler_indices(CTX(vm), &cfg, &rng, &idx, &n)) return lang_raise_engine(vm);
    sampler_iter *it = lang_obj_new(vm, &sampler_iter_type, sizeof *it);
    if (!it) {
        free(idx);
        return false;
    }
    it->idx = idx;
    it->n = n;
    *out = lang_obj_val(&it->hdr);
    return true;
}

static void sampler_iter_free(lang_obj *o) {
    free(((sampler_iter *)o)->idx);
}

static bool sampler_iter_self(lang_vm *vm, lang_obj *o, lang_val *out) {
    o->refcount++;
    *out = lang_obj_val(o);
    return true;
}

static bool sampler_iter_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *end) {
    sampler_iter *it = (sampler_iter *)o;
    *end = it->at >= it->n;
    if (!*end) *out = lang_int(it->idx[it->at++]);
    return true;
}

static const lang_type sampler_iter_type = {
    .name = "DistributedSampler_iterator",
    .free = sampler_iter_free,
    .iter = sampler_iter_self,
    .next = sampler_iter_next,
};

static bool sampler_start(lang_vm *vm, lang_obj *o, lang_val *out) {
    return sampler_iter_new(vm, (sampler_obj *)o, out);
}

static bool sampler_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    sampler_obj *s = (sampler_obj *)o;
    nn_dist_sampler cfg = {s->len, s->replicas, s->rank, s->shuffle, s->drop_last};
    *out = nn_dist_sampler_num_samples(&cfg);
    return true;
}

static bool sampler_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    sampler_obj *s = (sampler_obj *)o;
    lang_buf_printf(out,
                    "DistributedSampler(%lld items, num_replicas=%d, rank=%d, shuffle=%s, "
                    "seed=%lld, drop_last=%s, epoch=%lld)",
                    (long long)s->len, s->replicas, s->rank, s->shuffle ? "True" : "False",
                    (long long)s->seed, s->drop_last ? "True" : "False", (long long)s->epoch);
    return true;
}

static bool m_set_epoch(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val ev = lang_none();
    if (!lang_parse_args(vm, a, "set_epoch", "epoch", &ev)) return false;
    if (!lang_to_int(vm, ev, "epoch", &((sampler_obj *)self.u.o)->epoch)) return false;
    *out = lang_none();
    return true;
}

static bool sampler_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                            bool *found) {
    sampler_obj *s = (sampler_obj *)o;
    *found = true;
    if (!strcmp(name, "epoch"))
        *out = lang_int(s->epoch);
    else if (!strcmp(name, "seed"))
        *out = lang_int(s->seed);
    else if (!strcmp(name, "rank"))
        *out = lang_int(s->rank);
    else if (!strcmp(name, "num_replicas"))
        *out = lang_int(s->replicas);
    else if (!strcmp(name, "num_samples")) {
        int64_t n = 0;
        sampler_len(vm, o, &n);
        *out = lang_int(n);
    } else
        *found = false;
    return true;
}

static const lang_method sampler_methods[] = {
    {"set_epoch",
     m_set_epoch,
     {"DistributedSampler.set_epoch", "set_epoch(epoch)",
      "Shuffle with seed + epoch from now on; call it at the start of every epoch, or every "
      "epoch sees the same order.",
      "sampler.set_epoch(epoch)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help sampler_help = {
    "DistributedSampler",
    "DistributedSampler(dataset, num_replicas=None, rank=None, shuffle=True, seed=0, "
    "drop_last=False)",
    "The indices of this rank's share of dataset (or of range(n) for an int): shuffled with "
    "randperm seeded seed + epoch, padded (or cut, drop_last) to a multiple of num_replicas, then "
    "every num_replicas-th from rank, as PyTorch's.",
    "sampler = DistributedSampler(ds, shuffle=True, seed=0)"};

static const lang_type sampler_type = {
    .name = "DistributedSampler",
    .repr = sampler_repr,
    .getattr = sampler_getattr,
    .iter = sampler_start,
    .len = sampler_len,
    .methods = sampler_methods,
    .help = &sampler_help,
};

static bool f_sampler(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val dv = lang_none(), rv = lang_none(), kv = lang_none(), sh = lang_bool(true),
             sd = lang_int(0), dl = lang_bool(false);
    if (!lang_parse_args(vm, a, "DistributedSampler",
                         "dataset|num_replicas,rank,shuffle,seed,drop_last", &dv, &rv, &kv, &sh,
                         &sd, &dl))
        return false;
    int64_t len = 0;
    if (dv.kind == LANG_INT) {
        len = dv.u.i;
    } else if (dv.kind == LANG_OBJ && dv.u.o->type->len) {
        if (!dv.u.o->type->len(vm, dv.u.o, &len)) return false;
    } else {
        return lang_raise(vm, LANG_ERR_TYPE,
                          "DistributedSampler(): the dataset needs a len() (or pass its size as "
                          "an int), got %s",
                          lang_type_name(dv));
    }
    int64_t replicas = 0, rank = 0, seed = 0;
    bool shuffle, drop_last;
    if (rv.kind == LANG_NONE || kv.kind == LANG_NONE)
        if (!need_group(vm, "DistributedSampler")) return false;
    replicas = nn_dist_world_size();
    rank = nn_dist_rank();
    if ((rv.kind != LANG_NONE && !lang_to_int(vm, rv, "num_replicas", &replicas)) ||
        (kv.kind != LANG_NONE && !lang_to_int(vm, kv, "rank", &rank)) ||
        !lang_to_bool(vm, sh, "shuffle", &shuffle) || !lang_to_int(vm, sd, "seed", &seed) ||
        !lang_to_bool(vm, dl, "drop_last", &drop_last))
        return false;
    if (replicas < 1)
        return lang_raise(vm, LANG_ERR_VALUE, "DistributedSampler(): num_replicas must be >= 1");
    if (rank < 0 || rank >= replicas)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "Invalid rank %lld, rank should be in the interval [0, %lld]",
                          (long long)rank, (long long)replicas - 1);
    if (len < 0) return lang_raise(vm, LANG_ERR_VALUE, "DistributedSampler(): negative size");
    sampler_obj *s = lang_obj_new(vm, &sampler_type, sizeof *s);
    if (!s) return false;
    s->len = len;
    s->replicas = (int)replicas;
    s->rank = (int)rank;
    s->shuffle = shuffle;
    s->drop_last = drop_last;
    s->seed = seed;
    *out = lang_obj_val(&s->hdr);
    return true;
}

/* ------------------------------------------------------------------ ZeroRedundancyOptimizer */

typedef struct zero_obj {
    lang_obj hdr;
    nn_dist_zero *z;
} zero_obj;

static const lang_type zero_type;

static void zero_free(lang_obj *o) {
    nn_dist_zero_free(((zero_obj *)o)->z);
}

static bool zero_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    nn_dist_zero *z = ((zero_obj *)o)->z;
    nn_optim *l = nn_dist_zero_local(z);
    int64_t mine = nn_dist_zero_local_state(z), all = nn_dist_zero_total_state(z);
    lang_buf_printf(out,
                    "ZeroRedundancyOptimizer(%s, rank %d of %d keeps %lld of %lld state elements "
                    "(%.1f%%), %d parameter%s here)",
                    l ? nn_optim_kind_name(nn_optim_get_kind(l)) : "no local parameters",
                    nn_dist_rank(), nn_dist_world_size(), (long long)mine, (long long)all,
                    all ? 100.0 * (double)mine / (double)all : 0.0, l ? nn_optim_num_params(l) : 0,
                    l && nn_optim_num_params(l) == 1 ? "" : "s");
    return true;
}

static bool m_zero_step(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "step", "")) return false;
    return done(vm, nn_dist_zero_step(CTX(vm), ((zero_obj *)self.u.o)->z), out);
}

static bool m_zero_zero_grad(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val sn = lang_bool(true);
    bool none;
    if (!lang_parse_args(vm, a, "zero_grad", "|set_to_none", &sn) ||
        !lang_to_bool(vm, sn, "set_to_none", &none))
        return false;
    nn_dist_zero_zero_grad(((zero_obj *)self.u.o)->z, none);
    *out = lang_none();
    return true;
}

static bool zero_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    nn_dist_zero *z = ((zero_obj *)o)->z;
    *found = true;
    if (!strcmp(name, "local_state_numel"))
        *out = lang_int(nn_dist_zero_local_state(z));
    else if (!strcmp(name, "total_state_numel"))
        *out = lang_int(nn_dist_zero_total_state(z));
    else
        *found = false;
    return true;
}

static const lang_method zero_methods[] = {
    {"step",
     m_zero_step,
     {"ZeroRedundancyOptimizer.step", "step()",
      "Update this rank's share of the parameters with its optimizer, then broadcast every "
      "share from its owner.",
      "zero.step()"}},
    {"zero_grad",
     m_zero_zero_grad,
     {"ZeroRedundancyOptimizer.zero_grad", "zero_grad(set_to_none=True)",
      "Clear every parameter's gradient.", "zero.zero_grad()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help zero_help = {
    "ZeroRedundancyOptimizer", "ZeroRedundancyOptimizer(params, optimizer_class, **kwargs)",
    "ZeRO stage 1: the parameters are split across ranks (largest first, to the least loaded "
    "rank) and each rank keeps optimizer_class's state for its share only (1/world_size of the "
    "memory); step() updates the share and broadcasts it. local_state_numel and "
    "total_state_numel give the saving.",
    "zero = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=AdamW, lr=1e-3)"};

static const lang_type zero_type = {
    .name = "ZeroRedundancyOptimizer",
    .free = zero_free,
    .repr = zero_repr,
    .getattr = zero_getattr,
    .methods = zero_methods,
    .help = &zero_help,
};

static bool f_zero(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "ZeroRedundancyOptimizer() missing required argument: 'params'");
    if (!need_group(vm, "ZeroRedundancyOptimizer")) return false;
    lang_val cls = lang_none();
    /* The optimizer's own keywords go to optimizer_class, which checks them;
     * its configuration is what each rank's share uses. */
    const char **kw = calloc((size_t)a->nkw + 1, sizeof *kw);
    lang_val *kv = calloc((size_t)a->nkw + 1, sizeof *kv);
    if (!kw || !kv) {
        free(kw);
        free(kv);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    int nk = 0;
    for (int i = 0; i < a->nkw; i++) {
        if (!strcmp(a->kwnames[i], "optimizer_class")) {
            cls = a->kw[i];
        } else {
            kw[nk] = a->kwnames[i];
            kv[nk++] = a->kw[i];
        }
    }
    bool ok = true;
    if (a->n > 1) cls = a->pos[1];
    lang_val optv = lang_none();
    if (cls.kind == LANG_NONE)
        ok = lang_raise(vm, LANG_ERR_TYPE,
                        "ZeroRedundancyOptimizer() missing required argument: 'optimizer_class' "
                        "(SGD, Adam or AdamW)");
    if (ok) {
        lang_args oa = {1, a->pos, nk, kw, kv};
        ok = lang_vm_call(vm, cls, &oa, &optv);
    }
    nn_optim *full = ok ? lang_optim_of(optv) : NULL;
    if (ok && !full)
        ok = lang_raise(vm, LANG_ERR_TYPE,
                        "ZeroRedundancyOptimizer(): optimizer_class(params) gave %s, not an "
                        "optimizer",
                        lang_type_name(optv));
    nn_dist_zero *z = NULL;
    if (ok) {
        int n = nn_optim_num_params(full);
        nn_tensor **ps = calloc((size_t)n + 1, sizeof *ps);
        ok = ps || lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int i = 0; ok && i < n; i++) ps[i] = nn_optim_param(full, i);
        if (ok) {
            z = nn_dist_zero_new(CTX(vm), ps, n, nn_optim_get_config(full));
            if (!z) ok = lang_raise_engine(vm);
        }
        free(ps);
    }
    lang_val_release(optv);
    free(kw);
    free(kv);
    if (!ok) return false;
    zero_obj *o = lang_obj_new(vm, &zero_type, sizeof *o);
    if (!o) {
        nn_dist_zero_free(z);
        return false;
    }
    o->z = z;
    *out = lang_obj_val(&o->hdr);
    return true;
}

/* ------------------------------------------------------------------ dist_check */

static bool f_dist_check(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val mv = lang_none();
    if (!lang_parse_args(vm, a, "dist_check", "model", &mv)) return false;
    if (lang_is_obj(mv, &ddp_type)) mv = ((ddp_obj *)mv.u.o)->module;
    if (!need_group(vm, "dist_check")) return false;
    plist pl;
    if (!params_of(vm, mv, "dist_check", &pl)) return false;
    int first = -1, bad = -1;
    bool ok = !nn_dist_check(CTX(vm), pl.p, pl.n, &first, &bad) || lang_raise_engine(vm);
    lang_val rec = lang_none();
    if (ok) ok = lang_record_new(vm, "dist_check", &rec);
    if (ok) {
        char msg[512];
        const char *name = first >= 0 && first < pl.names.n ? pl.names.entries[first].name : NULL;
        char idx[32];
        snprintf(idx, sizeof idx, "parameter %d", first);
        if (first < 0)
            snprintf(msg, sizeof msg, "all %d parameters agree on %d ranks", pl.n,
                     nn_dist_world_size());
        else
            snprintf(msg, sizeof msg,
                     "parameters diverged: the first is %s (shape %s), which differs on rank %d "
                     "from rank 0",
                     name ? name : idx, "", bad);
        if (first >= 0) {
            char sh[128];
            nn_tensor_shape_str(pl.p[first], sh, sizeof sh);
            snprintf(msg, sizeof msg,
                     "parameters diverged: the first is %s (shape %s), which differs on rank %d "
                     "from rank 0",
                     name ? name : idx, sh, bad);
        }
        lang_val s = lang_none(), nm = lang_none();
        ok = lang_str_new(vm, msg, strlen(msg), &s);
        if (ok && name) ok = lang_str_new(vm, name, strlen(name), &nm);
        if (ok) ok = lang_record_set(vm, rec, "ok", lang_bool(first < 0));
        if (ok)
            ok = lang_record_set(vm, rec, "first",
                                 first < 0 ? lang_none()
                                 : name    ? nm
                                           : lang_int(first));
        if (ok) ok = lang_record_set(vm, rec, "rank", bad < 0 ? lang_none() : lang_int(bad));
        if (ok) ok = lang_record_set(vm, rec, "message", s);
        lang_val_release(s);
        lang_val_release(nm);
    }
    plist_free(&pl);
    if (!ok) {
        lang_val_release(rec);
        return false;
    }
    *out = rec;
    return true;
}

/* ------------------------------------------------------------------ dist_run */

/* dist_run(code_or_file, nprocs=2): run a script on several ranks from
 * inside a session (the REPL, a notebook, a drill): `mpirun --oversubscribe
 * -np N --tag-output nndb run FILE`, its lines streamed as they come, each
 * tagged "[rank R]", and collected per rank in the result. */

static bool find_on_path(const char *name, char *out, size_t size) {
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(out, size, "%.*s/%s", (int)n, n ? path : ".", name);
        if (access(out, X_OK) == 0) return true;
        path += n + (colon != NULL);
    }
    return false;
}

/* The nndb executable: NNDB_EXE, this process when it is nndb, or the nndb
 * beside it (the kernel, nndb-kernel, is built next to it). */
static bool nndb_exe(char *out, size_t size) {
    const char *env = getenv("NNDB_EXE");
    if (env && *env) {
        snprintf(out, size, "%s", env);
        return access(out, X_OK) == 0;
    }
    ssize_t n = readlink("/proc/self/exe", out, size - 8);
    if (n <= 0) return false;
    out[n] = 0;
    char *slash = strrchr(out, '/');
    if (slash && !strcmp(slash + 1, "nndb")) return true;
    if (slash) snprintf(slash + 1, size - (size_t)(slash + 1 - out), "nndb");
    return access(out, X_OK) == 0;
}

typedef struct run_out {
    lang_buf all, tagged; /* every line; the ranks' lines only */
    lang_buf *rank;
    int n;
} run_out;

/* One line of mpirun --tag-output ("[1,0]<stdout>:text"): streamed and kept. */
static void run_line(lang_vm *vm, run_out *ro, const char *line, size_t len) {
    int job = 0, r = -1, k = 0;
    char stream[8] = "";
    lang_stream which = LANG_STDOUT;
    const char *text = line;
    if (sscanf(line, "[%d,%d]<%7[a-z]>:%n", &job, &r, stream, &k) == 3 && k > 0) {
        text = line + k;
        len -= (size_t)k;
        if (!strcmp(stream, "stderr")) which = LANG_STDERR;
    } else {
        r = -1; /* mpirun's own words */
        which = LANG_STDERR;
    }
    char tag[32] = "";
    if (r >= 0) snprintf(tag, sizeof tag, "[rank %d] ", r);
    lang_buf one;
    lang_buf_init(&one);
    lang_buf_puts(&one, tag);
    size_t start = one.len;
    /* Open MPI tags each write, not each line: drop the tags inside it. */
    for (size_t i = 0; i < len;) {
        int j2 = 0, r2 = 0, k2 = 0;
        char s2[8];
        if (text[i] == '[' && sscanf(text + i, "[%d,%d]<%7[a-z]>:%n", &j2, &r2, s2, &k2) == 3 &&
            k2 > 0) {
            i += (size_t)k2;
            continue;
        }
        lang_buf_add(&one, text + i, 1);
        i++;
    }
    size_t body = one.len - start;
    lang_buf_puts(&one, "\n");
    lang_vm_write(vm, which, one.data, one.len);
    lang_buf_add(&ro->all, one.data, one.len);
    if (r >= 0) lang_buf_add(&ro->tagged, one.data, one.len);
    if (r >= 0 && r < ro->n) lang_buf_add(&ro->rank[r], one.data + start, body + 1);
    lang_buf_free(&one);
}

static bool f_dist_run(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val cv = lang_none(), npv = lang_int(2), tv = lang_float(300), chk = lang_bool(true);
    int64_t np = 2;
    double limit = 300;
    bool check = true;
    if (!lang_parse_args(vm, a, "dist_run", "code|nprocs,timeout,check", &cv, &npv, &tv, &chk) ||
        !lang_to_int(vm, npv, "nprocs", &np) || !lang_to_float(vm, tv, "timeout", &limit) ||
        !lang_to_bool(vm, chk, "check", &check))
        return false;
    if (!lang_is_obj(cv, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "dist_run(): expected the code to run (a str) or a script's path, not %s",
                          lang_type_name(cv));
    if (np < 1 || np > 64)
        return lang_raise(vm, LANG_ERR_VALUE, "dist_run(): nprocs must be 1..64, not %lld",
                          (long long)np);
    if (!(limit > 0)) return lang_raise(vm, LANG_ERR_VALUE, "dist_run(): timeout must be > 0");
    char mpirun[4096], exe[4096];
    if (!find_on_path("mpirun", mpirun, sizeof mpirun))
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "dist_run(): mpirun is not on PATH, so no ranks can be started here. "
                          "Install Open MPI (apt-get install openmpi-bin libopenmpi-dev)");
    if (!nndb_exe(exe, sizeof exe))
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "dist_run(): cannot find the nndb executable (set NNDB_EXE)");
    /* A path to an existing script, or code written to a temporary one. */
    const char *code = lang_str_cstr(cv);
    char file[4096];
    bool temp = false;
    if (!strchr(code, '\n') && access(code, R_OK) == 0) {
        snprintf(file, sizeof file, "%s", code);
    } else {
        const char *dir = getenv("TMPDIR");
        snprintf(file, sizeof file, "%s/nndb-dist-run-XXXXXX.nn", dir && *dir ? dir : "/tmp");
        int fd = mkstemps(file, 3);
        size_t len = strlen(code);
        if (fd < 0 || write(fd, code, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
            if (fd >= 0) close(fd), unlink(file);
            return lang_raise(vm, LANG_ERR_IO, "dist_run(): cannot write a temporary script: %s",
                              strerror(errno));
        }
        close(fd);
        temp = true;
    }
    char npstr[16];
    snprintf(npstr, sizeof npstr, "%lld", (long long)np);
    const char *argv[12];
    int k = 0;
    argv[k++] = mpirun;
    if (geteuid() == 0) argv[k++] = "--allow-run-as-root";
    argv[k++] = "--oversubscribe";
    argv[k++] = "-np";
    argv[k++] = npstr;
    argv[k++] = "--tag-output";
    argv[k++] = exe;
    argv[k++] = "run";
    argv[k++] = file;
    argv[k] = NULL;
    int fds[2];
    if (pipe(fds)) {
        if (temp) unlink(file);
        return lang_raise(vm, LANG_ERR_IO, "dist_run(): pipe: %s", strerror(errno));
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* one group: a timeout or Ctrl-C ends mpirun and every rank */
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        execv(mpirun, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        if (temp) unlink(file);
        return lang_raise(vm, LANG_ERR_RUNTIME, "dist_run(): fork: %s", strerror(errno));
    }
    setpgid(pid, pid);
    run_out ro;
    lang_buf_init(&ro.all);
    lang_buf_init(&ro.tagged);
    ro.n = (int)np;
    ro.rank = calloc((size_t)np, sizeof *ro.rank);
    for (int r = 0; ro.rank && r < ro.n; r++) lang_buf_init(&ro.rank[r]);
    lang_buf pending;
    lang_buf_init(&pending);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool timed_out = false, interrupted = false, reaped = false;
    int status = 0;
    for (;;) {
        struct pollfd pf = {fds[0], POLLIN, 0};
        int pr = poll(&pf, 1, 100);
        if (pr > 0) {
            char chunk[4096];
            ssize_t got = read(fds[0], chunk, sizeof chunk);
            if (got <= 0) break;
            lang_buf_add(&pending, chunk, (size_t)got);
            char *start = pending.data, *nl;
            while ((nl = memchr(start, '\n', pending.len - (size_t)(start - pending.data)))) {
                *nl = 0;
                run_line(vm, &ro, start, (size_t)(nl - start));
                start = nl + 1;
            }
            size_t rest = pending.len - (size_t)(start - pending.data);
            memmove(pending.data, start, rest);
            pending.len = rest;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (el > limit) timed_out = true;
        /* Ctrl-C, or a notebook's interrupt: KeyboardInterrupt is raised. */
        if (lang_vm_interrupted(vm)) interrupted = true;
        if (timed_out || interrupted) {
            /* mpirun ends the ranks it started when it gets SIGTERM (they
             * are not in its process group); SIGKILL only if it lingers. */
            kill(pid, SIGTERM);
            for (int i = 0; i < 100 && !reaped; i++) {
                reaped = waitpid(pid, &status, WNOHANG) == pid;
                struct timespec ts = {0, 50 * 1000 * 1000};
                if (!reaped) nanosleep(&ts, NULL);
            }
            if (!reaped) kill(-pid, SIGKILL);
            break;
        }
    }
    if (pending.len) run_line(vm, &ro, pending.data, pending.len);
    close(fds[0]);
    if (!reaped) waitpid(pid, &status, 0);
    if (temp) unlink(file);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    bool ok = true;
    lang_val rec = lang_none();
    if (interrupted) {
        ok = false; /* KeyboardInterrupt, raised above; every rank was ended */
    } else if (timed_out) {
        ok = lang_raise(vm, LANG_ERR_RUNTIME,
                        "dist_run(): the %lld ranks did not finish in %g s (timeout=); mpirun and "
                        "every rank were ended",
                        (long long)np, limit);
    } else if (check && rc != 0) {
        /* The last lines say why. */
        lang_buf *from = ro.tagged.len ? &ro.tagged : &ro.all;
        const char *tail = from->data ? from->data : "";
        size_t len = from->len;
        int lines = 0;
        size_t at = len;
        while (at > 0 && lines < 8)
            if (tail[--at] == '\n' && at + 1 < len) lines++;
        ok = lang_raise(vm, LANG_ERR_RUNTIME,
                        "dist_run(): mpirun -np %lld nndb run failed (exit status %d); its last "
                        "lines:\n%s",
                        (long long)np, rc, tail + at + (at > 0));
    }
    if (ok) ok = lang_record_new(vm, "dist_run", &rec);
    lang_val s = lang_none(), l = lang_none();
    if (ok) ok = lang_str_new(vm, ro.all.data ? ro.all.data : "", ro.all.len, &s);
    if (ok) ok = lang_record_set(vm, rec, "output", s);
    if (ok) ok = lang_list_new(vm, 0, &l);
    for (int r = 0; ok && r < ro.n; r++) {
        lang_val one;
        ok = lang_str_new(vm, ro.rank[r].data ? ro.rank[r].data : "", ro.rank[r].len, &one);
        if (ok) lang_list_append(vm, l, one);
        lang_val_release(one);
    }
    if (ok) ok = lang_record_set(vm, rec, "ranks", l);
    if (ok) ok = lang_record_set(vm, rec, "returncode", lang_int(rc));
    if (ok) ok = lang_record_set(vm, rec, "ok", lang_bool(rc == 0));
    lang_val_release(s);
    lang_val_release(l);
    lang_buf_free(&pending);
    lang_buf_free(&ro.all);
    lang_buf_free(&ro.tagged);
    for (int r = 0; ro.rank && r < ro.n; r++) lang_buf_free(&ro.rank[r]);
    free(ro.rank);
    if (!ok) {
        lang_val_release(rec);
        return false;
    }
    *out = rec;
    return true;
}

const lang_builtin_def lang_dist_builtins[] = {
    {"DistributedDataParallel", f_ddp, ddp_help},
    {"DistributedSampler", f_sampler, sampler_help},
    {"ZeroRedundancyOptimizer", f_zero, zero_help},
    {"dist_check",
     f_dist_check,
     {"dist_check", "dist_check(model)",
      "nndb's: compare every parameter's checksum across ranks; the result's message names the "
      "first parameter that diverged and on which rank (ok, first, rank, message).",
      "print(dist_check(model).message)"}},
    {"dist_run",
     f_dist_run,
     {"dist_run", "dist_run(code_or_file, nprocs=2, timeout=300, check=True)",
      "nndb's: run code (a str) or a script on nprocs ranks from this session: mpirun "
      "--oversubscribe -np nprocs nndb run, each line streamed as it comes, tagged [rank R]. The "
      "result has output (every line), ranks (rank r's lines), returncode and ok; a failed run "
      "raises RuntimeError with its last lines (check=False returns it instead), a run past "
      "timeout seconds is ended. Without mpirun it raises saying so.",
      "r = dist_run(\"dist.init_process_group(backend='mpi')\\nprint(dist.get_rank())\")"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
