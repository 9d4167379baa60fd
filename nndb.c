/* nndb: command-line entry point and subcommand dispatch.
 *
 *   nndb                 the REPL on a terminal; a script read from stdin otherwise
 *   nndb run FILE        run a Python script: exit 0 on success, 1 on an error
 *   nndb help [TOPIC]    this usage, or the help entry of a builtin or magic
 *   nndb demo            the engine demo: a forward pass traced op by op, then training
 *   nndb probe [--json]  read the GPU, driver and PCIe stack
 *   nndb doctor [--json] explain what is wrong with it
 *   nndb kernel -f FILE  the Jupyter kernel (execs nndb-kernel, which sits beside nndb)
 *   nndb install-kernel  write the kernelspec (--user, --sys-prefix, --prefix DIR)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drills/drill.h"
#include "nn_dist.h"
#include "nn_mem.h"
#include "nn_ops.h"
#include "nn_optim.h"
#include "probe/nn_probe_cli.h"
#include "py_embed.h"
#include "repl/repl.h"

#define NNDB_VERSION "0.1.0"

static void usage(FILE *f) {
    fprintf(
        f,
        "nndb %s: a debugger and drill book for neural-network training\n"
        "\n"
        "usage: nndb [command]\n"
        "\n"
        "commands:\n"
        "  (none)           start the REPL (a script piped into stdin runs as a script)\n"
        "  run FILE         run a Python script (FILE.py, or an older FILE.nn) with\n"
        "                   nndb's engine as torch; exit status 0 on success, 1 on an\n"
        "                   error;\n"
        "                   --break SPEC (repeatable) sets a breakpoint first (as %%break);\n"
        "                   --pdb opens the debugger on an uncaught error (post-mortem)\n"
        "  debug FILE       run a script under the debugger: stop before its first op\n"
        "  drill SUB        guided drills (docs/drills.md):\n"
        "                   list                the lessons and your status\n"
        "                   start ID [--name N] open the REPL with the drill loaded\n"
        "                   notebook ID [-o F]  write the drill as a notebook to hand out\n"
        "                   report [--csv] DIR  a class's exported evidence, with totals\n"
        "                   check [-v] FILE|DIR validate lessons (and their wrong fixes)\n"
        "                   new ID              write a lesson skeleton\n"
        "  help [TOPIC]     this text, or help on a builtin, method or magic (help zeros)\n"
        "  python [ARGS]    CPython with nndb's engine as torch: python3's arguments\n"
        "                   (a script, -c CODE, -m MODULE; nothing for its prompt);\n"
        "                   `nndb FILE.py` and `nndb -c CODE` too (sys.executable)\n"
        "  demo             trace a forward and backward pass op by op, then train a small MLP\n"
        "  probe [--json]   report the GPUs, their PCIe links, drivers and device nodes\n"
        "  doctor [--json]  explain what is wrong with the GPU set-up, and how to fix it\n"
        "  kernel -f FILE   run as a Jupyter kernel (what the kernelspec starts)\n"
        "  install-kernel   install the Jupyter kernelspec: --user (default), --sys-prefix,\n"
        "                   --prefix DIR; --name NAME\n"
        "  version          the version (also --version)\n"
        "\n"
        "Docs: docs/ in the source tree (docs/repl.md for the REPL's keys).\n",
        NNDB_VERSION);
}

/* ---- the demo: the engine's hooks and autograd, from C ---- */

typedef struct trace_state {
    int forward, backward;
} trace_state;

static void describe(const nn_tensor *t, char *buf, int size) {
    char sh[64];
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        sum += v;
    }
    snprintf(buf, (size_t)size, "%-10s mean %+.4f  min %+.4f  max %+.4f",
             nn_tensor_shape_str(t, sh, sizeof sh), n ? sum / (double)n : 0.0, lo, hi);
}

static nn_hook_action trace_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    trace_state *st = user;
    if (!ev->after) return NN_HOOK_CONTINUE;
    char stats[160];
    const nn_label *l = &ev->node->label;
    if (ev->phase == NN_PHASE_FORWARD) {
        describe(ev->output, stats, sizeof stats);
        printf("  fwd %2d  %-14s %-9s -> %s\n", ++st->forward, nn_op_name(ev->node->op),
               l->module ? l->module : "", stats);
    } else {
        describe(ev->grad_output, stats, sizeof stats);
        printf("  bwd %2d  %-14s %-9s dout %s\n", ++st->backward, nn_op_name(ev->node->op),
               l->module ? l->module : "", stats);
    }
    return NN_HOOK_CONTINUE;
}

/* Three interleaved spiral arms: 2-D points, 3 classes. */
static void make_spirals(nn_ctx *ctx, int n, nn_tensor **x, nn_tensor **y) {
    int64_t xs[2] = {n, 2}, ys[1] = {n};
    *x = nn_tensor_empty(ctx, NN_FLOAT32, 2, xs);
    *y = nn_tensor_empty(ctx, NN_INT64, 1, ys);
    float *xd = nn_tensor_data(*x);
    int64_t *yd = nn_tensor_data(*y);
    for (int i = 0; i < n; i++) {
        int cls = i % 3;
        double r = (double)(i / 3) / (double)(n / 3);
        double th = cls * 2.094 + r * 4.0 + 0.2 * nn_rng_normal(&ctx->rng);
        xd[2 * i] = (float)(r * sin(th));
        xd[2 * i + 1] = (float)(r * cos(th));
        yd[i] = cls;
    }
}

/* A Linear layer's weight and bias with PyTorch's default init. */
static void linear_params(nn_ctx *ctx, int in, int out, nn_tensor **w, nn_tensor **b) {
    int64_t ws[2] = {out, in}, bs[1] = {out};
    double bound = 1.0 / sqrt((double)in);
    *w = nn_tensor_empty(ctx, NN_FLOAT32, 2, ws);
    *b = nn_tensor_empty(ctx, NN_FLOAT32, 1, bs);
    nn_tensor_uniform_(ctx, *w, -bound, bound);
    nn_tensor_uniform_(ctx, *b, -bound, bound);
    nn_tensor_requires_grad_(ctx, *w, true);
    nn_tensor_requires_grad_(ctx, *b, true);
}

/* logits = L2(tanh(L1(tanh(L0(x))))), each op labelled with its module path. */
static nn_tensor *mlp_forward(nn_ctx *ctx, nn_tensor **p, nn_tensor *x) {
    static const char *names[] = {"model.0", "model.1", "model.2", "model.3", "model.4"};
    nn_tensor *h = nn_tensor_retain(x);
    for (int layer = 0; layer < 3 && h; layer++) {
        nn_ctx_set_label(ctx, names[2 * layer], "demo", 0);
        nn_tensor *z = nn_linear(ctx, h, p[2 * layer], p[2 * layer + 1]);
        nn_tensor_release(h);
        h = z;
        if (layer < 2 && h) {
            nn_ctx_set_label(ctx, names[2 * layer + 1], "demo", 0);
            z = nn_tanh(ctx, h);
            nn_tensor_release(h);
            h = z;
        }
    }
    nn_ctx_set_label(ctx, NULL, NULL, 0);
    return h;
}

static int fail(nn_ctx *ctx) {
    fprintf(stderr, "nndb demo: %s: %s\n", nn_status_name(nn_ctx_status(ctx)), nn_ctx_error(ctx));
    return 1;
}

static int demo(void) {
    nn_ctx *ctx = nn_ctx_new(0);
    if (!ctx) return 1;
    nn_tensor *x, *y, *p[6];
    make_spirals(ctx, 192, &x, &y);
    linear_params(ctx, 2, 64, &p[0], &p[1]);
    linear_params(ctx, 64, 64, &p[2], &p[3]);
    linear_params(ctx, 64, 3, &p[4], &p[5]);

    printf("One training step of Sequential(Linear(2, 64), Tanh(), Linear(64, 64), Tanh(),\n"
           "Linear(64, 3)) on 192 spiral points, traced by an executor hook:\n\n");
    trace_state st = {0, 0};
    int hook = nn_hook_add(ctx, "trace", trace_hook, &st);
    nn_tensor *logits = mlp_forward(ctx, p, x);
    nn_tensor *loss =
        logits ? nn_cross_entropy(ctx, logits, y, -100, 0.0, NN_REDUCTION_MEAN) : NULL;
    if (!loss || nn_backward(ctx, loss, NULL, false)) return fail(ctx);
    nn_hook_remove(ctx, hook);
    nn_tensor_release(logits);
    nn_tensor_release(loss);

    printf("\nTraining with Adam(lr=1e-2):\n");
    nn_optim *opt = nn_optim_adam(ctx, p, 6, 1e-2, 0.9, 0.999, 1e-8, 0.0, false);
    if (!opt) return fail(ctx);
    for (int step = 1; step <= 300; step++) {
        nn_optim_zero_grad(opt, true);
        logits = mlp_forward(ctx, p, x);
        loss = logits ? nn_cross_entropy(ctx, logits, y, -100, 0.0, NN_REDUCTION_MEAN) : NULL;
        if (!loss || nn_backward(ctx, loss, NULL, false) || nn_optim_step(ctx, opt))
            return fail(ctx);
        if (step == 1 || step % 50 == 0) {
            double v;
            nn_tensor_item(ctx, loss, &v);
            nn_tensor *pred = nn_argmax(ctx, logits, 1, false, false);
            nn_tensor *hit = pred ? nn_eq(ctx, pred, y) : NULL;
            int64_t correct = 0;
            for (int64_t i = 0; hit && i < nn_tensor_numel(hit); i++)
                correct += nn_tensor_get_flat(hit, i) != 0;
            printf("  step %3d  loss %.4f  accuracy %5.1f%%\n", step, v,
                   100.0 * (double)correct / 192.0);
            nn_tensor_release(pred);
            nn_tensor_release(hit);
        }
        nn_tensor_release(logits);
        nn_tensor_release(loss);
    }
    char peak[32];
    printf("\nPeak engine memory: %s. The same in the language: run `nndb` for the REPL, or\n"
           "`nndb install-kernel` for Jupyter; see README.md and docs/.\n",
           nn_mem_format(peak, sizeof peak, nn_mem_get_stats().peak));
    nn_optim_free(opt);
    for (int i = 0; i < 6; i++) nn_tensor_release(p[i]);
    nn_tensor_release(x);
    nn_tensor_release(y);
    nn_ctx_free(ctx);
    return 0;
}

/* Replace this process with the program [name] that sits beside this
 * binary, with [argv] (argv[0] is replaced). Returns only on failure. */
static int exec_sibling(const char *name, char **argv) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
    if (n <= 0) {
        fprintf(stderr, "nndb: cannot find my own path to start %s\n", name);
        return 1;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    strcpy(slash ? slash + 1 : exe, name);
    argv[0] = exe;
    execv(exe, argv);
    fprintf(stderr, "nndb: cannot start %s: %s\n", exe, strerror(errno));
    return 1;
}

/* Hand over to nndb-kernel, which sits beside this binary, keeping the
 * arguments ("kernel -f FILE", "install-kernel --user"). */
static int exec_kernel(char **argv) {
    return exec_sibling("nndb-kernel", argv);
}

/* Under mpirun: a rank whose script failed ends every rank (the others
 * would wait for it in their next collective); one that succeeded leaves
 * the group as MPI wants (MPI_Finalize). */
static int end_process_group(int rc) {
    if (!nn_dist_is_initialized()) return rc;
    if (rc != 0) {
        fprintf(stderr, "nndb: rank %d of %d failed; ending every rank (MPI_Abort)\n",
                nn_dist_rank(), nn_dist_world_size());
        fflush(stderr);
        nn_dist_abort(rc);
    }
    nn_error err = {0};
    if (nn_dist_destroy(&err)) fprintf(stderr, "nndb: %s\n", err.msg);
    return rc;
}

static int start_drill_repl(const char *first_cell) {
    return repl_interactive_with(NNDB_VERSION, first_cell);
}

/* A command line that is python3's rather than nndb's: an option other than
 * nndb's own (-h, --help, --version), or a script ending in .py. Programs
 * that start sys.executable (subprocess, multiprocessing's spawn) pass
 * these. */
static bool python_args(const char *cmd) {
    if (cmd[0] == '-')
        return strcmp(cmd, "-h") != 0 && strcmp(cmd, "--help") != 0 &&
               strcmp(cmd, "--version") != 0;
    size_t n = strlen(cmd);
    return n > 3 && !strcmp(cmd + n - 3, ".py");
}

int main(int argc, char **argv) {
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd) return isatty(0) ? repl_interactive(NNDB_VERSION) : repl_run_script(NULL);
    if (!strcmp(cmd, "run") || !strcmp(cmd, "debug")) {
        /* nndb run [--break SPEC]... FILE [ARGS]; nndb debug [--break SPEC]... FILE [ARGS] */
        const char **breaks = calloc((size_t)argc, sizeof *breaks);
        const char *file = NULL;
        int n = 0;
        bool bad = !breaks;
        for (int i = 2; i < argc && !bad; i++) {
            if (!strcmp(argv[i], "--break") || !strcmp(argv[i], "-b")) {
                if (i + 1 < argc)
                    breaks[n++] = argv[++i];
                else
                    bad = true;
            } else if (!strncmp(argv[i], "--break=", 8)) {
                breaks[n++] = argv[i] + 8;
            } else if (!strcmp(argv[i], "--pdb")) {
                breaks[n++] = "--pdb"; /* post-mortem on an uncaught error (nndb.debugger) */
            } else if (!file) {
                /* The rest is the script's: sys.argv = [FILE, args...]. */
                file = argv[i];
                lang_set_script_argv(argc - i, (const char *const *)argv + i);
                break;
            }
        }
        if (bad || !file) {
            fprintf(stderr,
                    "usage: nndb %s [--pdb] [--break SPEC]... FILE [ARGS...]   (or - for stdin)\n",
                    cmd);
            free(breaks);
            return 2;
        }
        int rc = repl_run_script_debug(file, breaks, n, !strcmp(cmd, "debug"));
        free(breaks);
        return end_process_group(rc);
    }
    if (!strcmp(cmd, "demo")) return demo();
    if (!strcmp(cmd, "python")) {
        /* `nndb python ARGS` is `python3 ARGS` with nndb's torch */
        argv[1] = argv[0];
        return end_process_group(py_embed_main(argc - 1, argv + 1));
    }
    if (python_args(cmd)) /* nndb is sys.executable: `nndb -c CODE`, `nndb FILE.py` */
        return end_process_group(py_embed_main(argc, argv));
    if (!strcmp(cmd, "drill")) return drill_cli(argc, argv, start_drill_repl);
    if (!strcmp(cmd, "kernel") || !strcmp(cmd, "install-kernel")) return exec_kernel(argv);
    if (!strcmp(cmd, "probe") || !strcmp(cmd, "doctor"))
        return nn_probe_cli(argc - 1, argv + 1, stdout, stderr);
    if (!strcmp(cmd, "help") && argc > 2) return repl_help_topic(argv[2]);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("nndb %s\n", NNDB_VERSION);
        return 0;
    }
    fprintf(stderr, "nndb: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
