/* The debugger through the session API: breakpoints of every kind, the
 * (nndb) prompt's commands answered by a scripted readline, tracepoints
 * when no input can be read, and the NaN hunt on planted causes. */
#include <stdlib.h>
#include <string.h>

#include "../nn_test.h"
#include "../unit/testutil.h"
#include "lang.h"

typedef struct dcap {
    lang_buf out;
    const char *const *lines; /* answers at the (nndb) prompt, NULL-terminated */
    int next, prompts;
    bool no_input;
} dcap;

static void d_stream(void *user, lang_stream which, const char *text, size_t len) {
    dcap *c = user;
    lang_buf_add(&c->out, text, len);
}

static void d_display(void *user, const lang_mime *m, const char *id, bool update) {
    dcap *c = user;
    const char *t = lang_mime_get(m, "text/plain");
    if (t) lang_buf_puts(&c->out, t);
    if (lang_mime_get(m, "text/html")) lang_buf_puts(&c->out, "[html]\n");
    if (lang_mime_get(m, "image/png")) lang_buf_puts(&c->out, "[png]\n");
}

static char *d_readline(void *user, const char *prompt, bool password) {
    dcap *c = user;
    c->prompts++;
    lang_buf_puts(&c->out, prompt);
    if (!c->lines || !c->lines[c->next]) return NULL;
    lang_buf_puts(&c->out, c->lines[c->next]);
    lang_buf_puts(&c->out, "\n");
    return strdup(c->lines[c->next++]);
}

static bool d_can_read(void *user) {
    return !((dcap *)user)->no_input;
}

static lang_session *dsession(dcap *c, const char *const *lines) {
    memset(c, 0, sizeof *c);
    lang_buf_init(&c->out);
    c->lines = lines;
    lang_frontend fe = {c,    d_display, d_stream, NULL, d_readline, d_can_read,
                        NULL, NULL,      false,    NULL, NULL};
    return lang_session_new(&fe);
}

/* Run [code] as cell [name]; returns ok; the error's "Name: message" goes
 * into c->out too. */
static bool drun(lang_session *s, dcap *c, const char *code, const char *name) {
    lang_result r;
    bool ok = lang_exec(s, code, name, true, &r);
    if (!ok) lang_buf_printf(&c->out, "%s: %s\n", r.error.ename, r.error.evalue);
    if (ok && r.has_value) lang_buf_printf(&c->out, "%s\n", lang_mime_get(&r.value, "text/plain"));
    lang_result_free(&r);
    return ok;
}

static void creset(dcap *c) {
    c->out.len = 0;
    if (c->out.data) c->out.data[0] = 0;
}

static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay ? strstr(hay, needle) : NULL; p; p = strstr(p + 1, needle)) n++;
    return n;
}

static void dfree(lang_session *s, dcap *c) {
    lang_session_free(s);
    lang_buf_free(&c->out);
}

static const char *MLP =
    "manual_seed(0)\n"
    "model = Sequential(Linear(4, 8), Tanh(), Linear(8, 8), Tanh(), Linear(8, 3))\n"
    "x = randn(16, 4)\n"
    "y = randint(0, 3, (16,))\n"
    "opt = SGD(model.parameters(), lr=0.1)\n";
static const char *STEP = "loss = cross_entropy(model(x), y)\n"
                          "opt.zero_grad()\n"
                          "loss.backward()\n"
                          "opt.step()\n";

NN_TEST(debug_break_op_module_phase) {
    static const char *const cont[] = {"c", "c", "c", "c", "c", "c", "c", "c", "c", "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cont);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "%break tanh", "<cell 2>"));
    CHECK(strstr(c.out.data, "Breakpoint 1: tanh"));
    CHECK(drun(s, &c, STEP, "<cell 3>"));
    CHECK(count(c.out.data, "> stopped (breakpoint 1, tanh): forward tanh") == 2);
    CHECK(count(c.out.data, "> stopped") == 2);
    /* module path: model.2 is the second Linear, and only it */
    creset(&c);
    CHECK(drun(s, &c, "%delete all\n%break model.2", "<cell 4>"));
    CHECK(drun(s, &c, STEP, "<cell 5>"));
    CHECK(count(c.out.data, "> stopped") == 1);
    CHECK(strstr(c.out.data, "forward linear, op 3 of this statement, in model.2"));
    CHECK(strstr(c.out.data, "inputs[1] model.2.weight"));
    /* backward: every node of the backward pass, k of n */
    creset(&c);
    c.next = 0;
    CHECK(drun(s, &c, "%delete all\n%break backward", "<cell 6>"));
    CHECK(drun(s, &c, STEP, "<cell 7>"));
    CHECK(count(c.out.data, "> stopped") == 6);
    CHECK(strstr(c.out.data, "backward cross_entropy, node 1 of 6"));
    CHECK(strstr(c.out.data, "backward linear, node 6 of 6, in model.0"));
    CHECK(strstr(c.out.data, "grads[1]"));
    /* an op in one phase: linear backward */
    creset(&c);
    c.next = 0;
    CHECK(drun(s, &c, "%delete all\n%break linear backward", "<cell 8>"));
    CHECK(drun(s, &c, STEP, "<cell 9>"));
    CHECK(count(c.out.data, "> stopped") == 3);
    CHECK(count(c.out.data, "backward linear") == 3);
    dfree(s, &c);
}

/* A forward run while the debugger is off keeps only what backward reads
 * (docs/debugger.md, "What a node keeps"): a backward stop set afterwards
 * says which input was not kept, and reading it explains instead of
 * failing; a forward run with the debugger on keeps it. */
NN_TEST(debug_backward_stop_input_not_kept) {
    static const char *const cmds[] = {
        "p inputs[0].sum()", "c", "c", "p inputs[0].shape", "c", "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "h = model(x)", "<cell 2>"));
    CHECK(drun(s, &c, "%break tanh backward\nh.sum().backward()", "<cell 3>"));
    CHECK_MSG(count(c.out.data, "> stopped (breakpoint 1, tanh backward)") == 2, "%s", c.out.data);
    CHECK(strstr(c.out.data, "not kept after forward (backward does not need it); turn the "
                             "debugger on before the forward to keep it"));
    CHECK(strstr(c.out.data, "RuntimeError: this value was not kept after the forward"));
    /* the breakpoint is on now: this forward keeps every input */
    creset(&c);
    CHECK(drun(s, &c, "h = model(x)\nh.sum().backward()", "<cell 4>"));
    CHECK_MSG(count(c.out.data, "> stopped (breakpoint 1, tanh backward)") == 2, "%s", c.out.data);
    CHECK(strstr(c.out.data, "torch.Size([16, 8])"));
    CHECK(!strstr(c.out.data, "not kept"));
    dfree(s, &c);
}

NN_TEST(debug_break_line_step_condition_hits) {
    static const char *const cont[] = {"c", "c", "c", "c", "c", "c", "c",
                                       "c", "c", "c", "c", "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cont);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    /* FILE:LINE with a cell name (it holds a space), and line N */
    CHECK(drun(s, &c, "%break <cell 3>:2 tanh", "<cell 2>"));
    CHECK(drun(s, &c, "a = tanh(x)\nb = tanh(x)\nc2 = tanh(x)", "<cell 3>"));
    CHECK(count(c.out.data, "> stopped") == 1);
    CHECK(strstr(c.out.data, "at <cell 3>:2"));
    creset(&c);
    CHECK(drun(s, &c, "%delete all\n%break line 3", "<cell 4>"));
    CHECK(drun(s, &c, "a = tanh(x)\nb = exp(x)\nc2 = log(x.abs() + 1)", "<cell 5>"));
    CHECK(count(c.out.data, "> stopped") == 3); /* abs, add, log on line 3 */
    CHECK(!strstr(c.out.data, "forward exp"));
    /* step N: the N-th training step (backward() calls counted from 1) */
    creset(&c);
    c.next = 0;
    CHECK(drun(s, &c, "%delete all\n%break step 3 linear", "<cell 6>"));
    CHECK(drun(s, &c,
               "for i in range(4):\n    "
               "loss = cross_entropy(model(x), y)\n    opt.zero_grad()\n"
               "    loss.backward()\n    opt.step()\n",
               "<cell 7>"));
    /* steps so far: cell 5 ran no backward; this loop's third backward is step 3 */
    CHECK_MSG(count(c.out.data, "> stopped") == 3, "%s", c.out.data);
    /* conditions, hit counts, disable/enable */
    creset(&c);
    c.next = 0;
    CHECK(drun(
        s, &c,
        "%delete all\n%break tanh if out.abs().max() > 100\n%break linear if out.shape[1] == 3",
        "<cell 8>"));
    CHECK(drun(s, &c, STEP, "<cell 9>"));
    CHECK(count(c.out.data, "> stopped") == 1);
    CHECK(strstr(c.out.data, "in model.4"));
    creset(&c);
    CHECK(drun(s, &c, "%break", "<cell 10>"));
    CHECK(strstr(c.out.data, "4    yes      0     tanh if out.abs().max() > 100"));
    CHECK(strstr(c.out.data, "5    yes      1     linear if out.shape[1] == 3"));
    CHECK(drun(s, &c, "%disable 5", "<cell 11>"));
    creset(&c);
    CHECK(drun(s, &c, STEP, "<cell 12>"));
    CHECK(count(c.out.data, "> stopped") == 0);
    CHECK(drun(s, &c, "%enable 5", "<cell 13>"));
    c.next = 0;
    CHECK(drun(s, &c, STEP, "<cell 14>"));
    CHECK(count(c.out.data, "> stopped") == 1);
    /* bad specs and conditions are errors at %break time */
    creset(&c);
    CHECK(!drun(s, &c, "%break tanh if out.abs(", "<cell 15>"));
    CHECK(strstr(c.out.data, "SyntaxError: breakpoint condition"));
    CHECK(!drun(s, &c, "%break line x", "<cell 16>"));
    /* a bad spec is the magic's UsageError, as IPython's magics say (the
     * old interpreter said ValueError); a condition stays a SyntaxError */
    CHECK(strstr(c.out.data, "UsageError: %break line needs a positive number, got 'x'"));
    CHECK(!drun(s, &c, "%delete 99", "<cell 17>"));
    CHECK(strstr(c.out.data, "no breakpoint 99"));
    dfree(s, &c);
}

NN_TEST(debug_break_module_wildcard) {
    static const char *const cont[] = {"c", "c", "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cont);
    CHECK(drun(s, &c,
               "g = GPT(vocab_size=16, block_size=4, n_layer=2, n_head=2, n_embd=8)\n"
               "ids = randint(0, 16, (2, 4))\n"
               "%break g.blocks.*.attn softmax",
               "<cell 1>"));
    CHECK(drun(s, &c, "logits = g(ids)", "<cell 2>"));
    CHECK(count(c.out.data, "> stopped") == 2);
    CHECK(strstr(c.out.data, "in g.blocks.0.attn"));
    CHECK(strstr(c.out.data, "in g.blocks.1.attn"));
    /* a prefix matches whole components: g.blocks.1 is not g.blocks.10 */
    creset(&c);
    c.next = 0;
    CHECK(drun(s, &c, "%delete all\n%break g.block layer_norm\nlogits = g(ids)", "<cell 3>"));
    CHECK(count(c.out.data, "> stopped") == 0);
    dfree(s, &c);
}

NN_TEST(debug_prompt_commands) {
    static const char *const cmds[] = {"s", /* model.3 tanh */
                                       "",  /* repeats s: model.4 linear */
                                       "w",
                                       "l 1",
                                       "p out.shape",
                                       "pp node.module",
                                       "watch out.sum()",
                                       "out[0, 0] = 100.0", /* the pass goes on with the edit */
                                       "nop",               /* step over to cross_entropy */
                                       "h",
                                       "h nop",
                                       "b backward",
                                       "c",
                                       "p grad.shape",
                                       "grads[0].shape",
                                       "cl all",
                                       "unwatch 1",
                                       "c",
                                       NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "clean = cross_entropy(model(x), y).item()", "<cell 2>"));
    CHECK(drun(s, &c, "%break model.2", "<cell 3>"));
    CHECK(drun(s, &c, "loss = cross_entropy(model(x), y)\nloss.backward()", "<cell 4>"));
    const char *o = c.out.data;
    CHECK(strstr(o, "> stopped (step): forward tanh, op 4 of this statement, in model.3"));
    CHECK(strstr(o, "> stopped (step): forward linear, op 5 of this statement, in model.4"));
    CHECK(strstr(o, "module stack:\n  model\n    model.4\n"));
    CHECK(strstr(o, "position: forward linear, op 5 of this statement"));
    /* l and pp are pdb's: its listing format, pprint's repr */
    CHECK(strstr(o, "  1  ->\tloss = cross_entropy(model(x), y)"));
    CHECK(strstr(o, "torch.Size([16, 3])"));
    CHECK(strstr(o, "(nndb) pp node.module\n'model.4'\n"));
    CHECK(strstr(o, "Watch 1: out.sum()"));
    CHECK(strstr(o, "> stopped (next): forward cross_entropy"));
    CHECK(strstr(o, "watch 1: out.sum() = tensor("));
    CHECK(strstr(o, "Commands at the (nndb) prompt:"));
    CHECK(strstr(o, "n, next: run to the next line of this frame"));
    CHECK(strstr(o, "nop: run until a node outside the current module"));
    CHECK(strstr(o, "Breakpoint 2: backward"));
    CHECK(strstr(o, "> stopped (breakpoint 2, backward): backward cross_entropy, node 1 of 6"));
    CHECK(strstr(o, "(nndb) p grad.shape\ntorch.Size([])"));
    CHECK(strstr(o, "(nndb) grads[0].shape\ntorch.Size([16, 3])"));
    /* the edit changed the loss the pass went on with */
    creset(&c);
    CHECK(drun(s, &c, "%delete all\nprint(loss.item() != clean, loss.item() > clean + 1)",
               "<cell 5>"));
    CHECK(strstr(c.out.data, "True True"));
    /* out, inputs, grad are not left behind */
    creset(&c);
    CHECK(!drun(s, &c, "out", "<cell 6>"));
    CHECK(strstr(c.out.data, "NameError"));
    dfree(s, &c);
}

NN_TEST(debug_quit_keeps_the_session) {
    static const char *const cmds[] = {"inputs[0].mean().item() == x.mean().item()", "q", NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "%break linear", "<cell 2>"));
    CHECK(!drun(s, &c, "loss = cross_entropy(model(x), y)\nafter = 1", "<cell 3>"));
    CHECK(strstr(c.out.data, "(nndb) inputs[0].mean().item() == x.mean().item()\nTrue"));
    /* the old interpreter's DebuggerQuit is torch._C.Stopped */
    CHECK(strstr(c.out.data, "Stopped: quit at the debugger, forward linear in model.0: the "
                             "statement was aborted"));
    creset(&c);
    CHECK(drun(s, &c, "%delete all\nprint(x.shape, model[0].weight.shape)", "<cell 4>"));
    CHECK(strstr(c.out.data, "torch.Size([16, 4]) torch.Size([8, 4])"));
    CHECK(!drun(s, &c, "after", "<cell 5>")); /* the rest of the cell did not run */
    dfree(s, &c);
}

NN_TEST(debug_breakpoint_builtin_and_step_magic) {
    static const char *const cmds[] = {"c", "s", "c", "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "a = 1 + 2\nbreakpoint()\nh = model(x)", "<cell 2>"));
    CHECK(strstr(c.out.data,
                 "> stopped (breakpoint()): forward linear, op 1 of this statement, in model.0"));
    CHECK(count(c.out.data, "> stopped") == 1);
    creset(&c);
    CHECK(drun(s, &c, "loss = cross_entropy(model(x), y)", "<cell 3>"));
    CHECK_MSG(count(c.out.data, "> stopped") == 0, "%s", c.out.data);
    CHECK(drun(s, &c, "%step loss.backward()", "<cell 4>"));
    CHECK(strstr(c.out.data, "> stopped (step): backward cross_entropy, node 1 of 6"));
    /* cell 3 ran with the debugger off, so its nodes carry no module path
     * (nodes are labelled only while the debugger is on; the old
     * interpreter labelled every node) */
    CHECK_MSG(strstr(c.out.data, "> stopped (step): backward linear, node 2 of 6\n"), "%s",
              c.out.data);
    CHECK(count(c.out.data, "> stopped") == 2);
    dfree(s, &c);
}

NN_TEST(debug_tracepoint_without_input) {
    dcap c;
    lang_session *s = dsession(&c, NULL);
    c.no_input = true;
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "%break tanh\nwatch_me = 1", "<cell 2>"));
    CHECK(drun(s, &c, STEP, "<cell 3>"));
    CHECK(count(c.out.data, "> stopped (breakpoint 1, tanh)") == 2);
    CHECK(c.prompts == 0);
    CHECK(strstr(c.out.data, "(no input here: breakpoints print their stop and the pass goes on)"));
    dfree(s, &c);
}

NN_TEST(debug_stop_code_neither_records_nor_breaks) {
    static const char *const cmds[] = {"z = tanh(out)", "print(z.grad_fn is None, z.requires_grad)",
                                       "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "%break tanh", "<cell 2>"));
    CHECK(drun(s, &c, "h = model[1](model[0](x))", "<cell 3>"));
    CHECK(count(c.out.data, "> stopped") == 1);
    CHECK(strstr(c.out.data, "True False"));
    dfree(s, &c);
}

/* ---- the NaN hunt ---- */

static void hunt(const char *setup, const char *code, const char *want1, const char *want2) {
    dcap c;
    lang_session *s = dsession(&c, NULL);
    CHECK(drun(s, &c, setup, "<cell 1>"));
    CHECK(drun(s, &c, "%anomaly on", "<cell 2>"));
    bool ok = drun(s, &c, code, "<cell 3>");
    CHECK_MSG(!ok, "no error for %s", code);
    CHECK_MSG(strstr(c.out.data, "AnomalyError: "), "%s", c.out.data);
    CHECK_MSG(strstr(c.out.data, want1), "want '%s' in:\n%s", want1, c.out.data);
    if (want2) CHECK_MSG(strstr(c.out.data, want2), "want '%s' in:\n%s", want2, c.out.data);
    dfree(s, &c);
}

NN_TEST(debug_nan_hunt_forward_origins) {
    hunt("x = tensor([[1.0, 2.0], [3.0, 0.0]], requires_grad=True)", "a = x * 2\ny = log(a)",
         "forward: log produced an infinity from finite inputs: log(0.0) = -inf at index [1, 1]",
         "op log, at <cell 3>:2");
    hunt("x = tensor([0.0, 1.0], requires_grad=True)", "y = (x * 1) / x",
         "forward: div produced NaN from NaN-free inputs: div(0.0, 0.0) = nan at index [0]",
         "<cell 3>:1");
    hunt("x = tensor([1.0, 100.0], requires_grad=True)", "y = exp(x).sum()",
         "exp(100.0) = inf at index [1]", NULL);
    /* a -inf mask is legitimate; the NaN a fully masked row becomes is not */
    hunt("s = randn(2, 3, requires_grad=True)\nm = tensor([[0.0, 0.0, float('-inf')], "
         "[float('-inf'), "
         "float('-inf'), float('-inf')]])",
         "p = softmax(s + m, dim=1)", "forward: softmax produced NaN from NaN-free inputs", NULL);
    /* a module: the path and the line */
    hunt("manual_seed(0)\nmodel = Sequential(Linear(2, 4), Tanh(), Linear(4, 2))\nx = randn(8, 2)\n"
         "x[5, 0] = float('nan')\ny = randint(0, 2, (8,))",
         "z = 1\nloss = cross_entropy(model(x), y)",
         "NaN in the leaf tensor x (input 0 of linear) at index [5, 0]",
         "op linear in model.0, at <cell 3>:2");
    /* a dataset with a NaN planted in one input row (nndb's plantable bug) */
    hunt("manual_seed(0)\nds = spirals(60, bugs=['nan'], nan_row=7, nan_col=1)\n"
         "model = Sequential(Linear(2, 8), ReLU(), Linear(8, 3))",
         "loss = cross_entropy(model(ds.x), ds.y)", "NaN in the leaf tensor ds.x",
         "input 0 of linear) at index [7, 1]");
    /* cross_entropy with a row of -inf logits */
    hunt("logits = tensor([[1.0, 2.0], [float('-inf'), float('-inf')]], requires_grad=True)\n"
         "t = tensor([0, 1])",
         "loss = cross_entropy(logits * 1, t)", "forward: cross_entropy produced NaN", NULL);
}

NN_TEST(debug_nan_hunt_backward_and_optimizer) {
    hunt("x = tensor([0.0, 1.0, 4.0], requires_grad=True)", "y = sqrt(x).sum()\ny.backward()",
         "backward: the gradient of sqrt with respect to its input 0 is inf at index [0]; the "
         "forward "
         "input there was 0.0",
         "op sqrt (the forward op of this backward node), at <cell 3>:1");
    hunt("x = tensor([0.0, 1.0], requires_grad=True)", "y = pow(x, 0.5).sum()\ny.backward()",
         "backward: the gradient of pow with respect to its input 0 is inf at index [0]", NULL);
    hunt("manual_seed(0)\nw = randn(3, requires_grad=True)\nopt = Adam([w], lr=1e39)",
         "loss = (w * w).sum()\nloss.backward()\nopt.step()",
         "Adam.step() made the parameter w non-finite", "lr 1e+39");
    /* an embedding tied to the output layer adds its rows into the weight's
     * gradient without building its own; its own overflows here (two rows
     * of 3e38 for index 1), so it is built for the report all the same */
    hunt("manual_seed(0)\nemb = torch.nn.Embedding(4, 2)\nhead = Linear(2, 4, bias=False)\n"
         "emb.weight = head.weight\nwith torch.no_grad():\n    head.weight.fill_(0.01)\n"
         "idx = tensor([1, 1, 2])",
         "x = emb(idx)\nloss = (head(x) * 0.001).sum() + (x * 3e38).sum()\nloss.backward()",
         "backward: the gradient of embedding with respect to its input 0 is inf at index [1, 0]",
         "op embedding in emb (the forward op of this backward node), at <cell 3>:1");
    /* with anomaly off nothing is raised */
    dcap c;
    lang_session *s = dsession(&c, NULL);
    CHECK(drun(s, &c, "x = tensor([0.0], requires_grad=True)\ny = log(x)", "<cell 1>"));
    CHECK(drun(s, &c,
               "with torch.autograd.detect_anomaly():\n    z = x * 1\nprint(is_anomaly_enabled())",
               "<cell 2>"));
    CHECK(strstr(c.out.data, "False"));
    CHECK(!drun(s, &c, "with torch.autograd.detect_anomaly():\n    z = log(x)", "<cell 3>"));
    CHECK(strstr(c.out.data, "AnomalyError"));
    CHECK(drun(s, &c, "print(is_anomaly_enabled())", "<cell 4>"));
    dfree(s, &c);
}

/* The check around an optimizer step reads a parameter only when it is not
 * known finite (the update checked what it wrote, and nothing wrote it
 * since): a parameter made non-finite between steps is not the step's
 * doing, and a step that makes one non-finite is still named. */
NN_TEST(debug_nan_hunt_optimizer_after_finite_steps) {
    dcap c;
    lang_session *s = dsession(&c, NULL);
    CHECK(drun(s, &c,
               "manual_seed(0)\nw = randn(3, requires_grad=True)\n"
               "b = randn(2, 3).requires_grad_()\nopt = AdamW([w, b], lr=0.1)\n"
               "def step():\n    opt.zero_grad()\n    loss = (w * w).sum() + (b * b).sum()\n"
               "    loss.backward()\n    opt.step()",
               "<cell 1>"));
    CHECK(drun(s, &c, "%anomaly on", "<cell 2>"));
    CHECK(drun(s, &c, "for i in range(3):\n    step()", "<cell 3>"));
    CHECK_MSG(drun(s, &c,
                   "with torch.no_grad():\n    b.mul_(float('inf'))\nopt.zero_grad()\n"
                   "(w * w).sum().backward()\nopt.step()\nprint('no report for b')",
                   "<cell 4>"),
              "%s", c.out.data);
    CHECK(strstr(c.out.data, "no report for b"));
    CHECK(drun(s, &c, "with torch.no_grad():\n    b.fill_(1.0)\nopt.param_groups[0]['lr'] = 1e39",
               "<cell 5>"));
    CHECK(!drun(s, &c, "step()", "<cell 6>"));
    CHECK_MSG(strstr(c.out.data, "AnomalyError: AdamW.step() made the parameter w non-finite: "
                                 "-inf at index [0] (3 non-finite elements)"),
              "%s", c.out.data);
    dfree(s, &c);
}

NN_TEST(debug_nan_breakpoint_opens_at_the_origin) {
    static const char *const cmds[] = {"p inputs[0]", "c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c, "x = tensor([1.0, 0.0])\n%break nan", "<cell 1>"));
    CHECK(drun(s, &c, "a = x * 2\nb = log(a)\nc3 = b * 3\nd = c3 + 1", "<cell 2>"));
    CHECK_MSG(count(c.out.data, "> stopped") == 1, "%s", c.out.data);
    CHECK(strstr(c.out.data, "> stopped (breakpoint 1, nan): forward log"));
    CHECK(strstr(c.out.data, "tensor([2., 0.])"));
    dfree(s, &c);
}

NN_TEST(debug_graph_view) {
    dcap c;
    lang_session *s = dsession(&c, NULL);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(!drun(s, &c, "%graph", "<cell 2>"));
    CHECK(strstr(c.out.data, "no graph to show yet"));
    creset(&c);
    CHECK(drun(s, &c, "loss = cross_entropy(model(x), y)\n%graph loss", "<cell 3>"));
    CHECK(strstr(c.out.data, "graph of 6 nodes"));
    CHECK(strstr(c.out.data, "#1 cross_entropy []"));
    /* with the debugger off, linear's node lets its output go once tanh
     * has used it (backward reads neither), and the view says so */
    CHECK_MSG(strstr(c.out.data, "#6 linear [16, 8] (not kept after forward)"), "%s", c.out.data);
    CHECK(strstr(c.out.data, "#5 tanh [16, 8] mean"));
    CHECK(strstr(c.out.data, "leaf model.0.weight [8, 4]"));
    /* recorded with the debugger off: nodes carry no module path or line
     * (the old interpreter labelled every node), and the view says so */
    CHECK(
        strstr(c.out.data, "(no module paths or lines: ops are labelled while the debugger is on"));
    /* with it on (anomaly mode here) they do */
    creset(&c);
    CHECK(drun(s, &c, "%anomaly on\nloss = cross_entropy(model(x), y)\n%graph loss", "<cell 4>"));
    CHECK_MSG(strstr(c.out.data, "#6 linear [16, 8]  (model.0)  <cell 4>:2 mean"), "%s",
              c.out.data);
    CHECK(!strstr(c.out.data, "(no module paths"));
    creset(&c);
    CHECK(drun(s, &c, "loss.backward()\n%graph --depth 1", "<cell 4b>"));
    CHECK(strstr(c.out.data, "graph of 6 nodes"));
    CHECK(strstr(c.out.data, "[model] 5 ops"));
    /* a GPT: repeated blocks collapse */
    creset(&c);
    CHECK(drun(s, &c,
               "g = GPT(vocab_size=16, block_size=4, n_layer=3, n_head=2, n_embd=8)\n"
               "ids = randint(0, 16, (2, 4))\nl2 = gpt_loss(g, ids, ids) if False else "
               "cross_entropy(g(ids).reshape(-1, 16), ids.reshape(-1))\n%graph l2",
               "<cell 5>"));
    CHECK_MSG(strstr(c.out.data, "the same ops as g.blocks.0"), "%s", c.out.data);
    CHECK(!drun(s, &c, "%graph 3", "<cell 6>"));
    dfree(s, &c);
    /* at a forward stop: the graph so far, the current node marked */
    static const char *const cmds[] = {"%graph", "c", NULL};
    s = dsession(&c, cmds);
    CHECK(drun(s, &c, MLP, "<cell 1>"));
    CHECK(drun(s, &c, "%break model.4\nh = model(x)", "<cell 2>"));
    CHECK_MSG(strstr(c.out.data, "graph of 5 nodes"), "%s", c.out.data);
    CHECK_MSG(strstr(c.out.data, "#1 linear [16, 3]  (model.4)  <cell 2>:2 mean"), "%s",
              c.out.data);
    CHECK(strstr(c.out.data, "<== stopped here"));
    CHECK(strstr(c.out.data, "#5 linear [16, 8]  (model.0)"));
    dfree(s, &c);
}

/* ---- docs/debugger.md: every ```nndb block is a cell of one session;
 * "(nndb) CMD" lines answer the prompt, "# expect: TEXT" must appear in the
 * block's output, "# expect error: TEXT" in its error. ---- */

/* At a stop in a convolution, show_feature_maps(out) sends one picture
 * (image/png, which the REPL saves and Jupyter shows) of example 0's
 * channels, and %graph names the convolution with its output shape and the
 * weight leaf with its own. */
NN_TEST(debug_conv_feature_maps) {
    static const char *const cmds[] = {"show_feature_maps(out)", "show_feature_maps(out[1])", "c",
                                       NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c,
               "manual_seed(0)\n"
               "net = Sequential(Conv2d(1, 20, 3, padding=1), ReLU(), MaxPool2d(2))\n"
               "x = randn(2, 1, 12, 12)",
               "<cell 1>"));
    CHECK(drun(s, &c, "%break net.0", "<cell 2>"));
    CHECK(drun(s, &c, "y = net(x)", "<cell 3>"));
    const char *o = c.out.data;
    CHECK(strstr(o, "> stopped (breakpoint 1, net.0): forward convolution"));
    CHECK(strstr(o, "(nndb) show_feature_maps(out)\n<20 feature maps 12x12, first 16 shown, each "
                    "stretched to its own range>[png]\n"));
    CHECK(strstr(o, "(nndb) show_feature_maps(out[1])\n<20 feature maps 12x12, first 16 shown"));
    CHECK(count(o, "[png]") == 2);
    creset(&c);
    CHECK(drun(s, &c, "%delete all\n%graph y", "<cell 4>"));
    CHECK(strstr(c.out.data, "convolution [2, 20, 12, 12]"));
    CHECK(strstr(c.out.data, "leaf net.0.weight [20, 1, 3, 3]"));
    creset(&c);
    CHECK(!drun(s, &c, "show_feature_maps(randn(3, 4))", "<cell 5>"));
    CHECK(strstr(c.out.data, "ValueError: show_feature_maps(): expected feature maps [N, C, H, "
                             "W] or [C, H, W], got shape [3, 4]"));
    dfree(s, &c);
}

NN_TEST(debug_docs) {
    char *text = tu_read_file("docs/debugger.md");
    CHECK_MSG(text != NULL, "cannot read docs/debugger.md");
    if (!text) return;
    const char *answers[64];
    char *expects[32], *errors[4];
    dcap c;
    lang_session *s = dsession(&c, answers);
    int blocks = 0, n_ans = 0, n_exp = 0, n_err = 0;
    lang_buf code;
    lang_buf_init(&code);
    bool in = false;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, n);
        p = nl ? nl + 1 : p + n;
        if (!in && !strcmp(line, "```nndb")) {
            in = true;
            n_ans = n_exp = n_err = 0;
            code.len = 0;
            if (code.data) code.data[0] = 0;
        } else if (in && !strcmp(line, "```")) {
            in = false;
            blocks++;
            answers[n_ans] = NULL;
            c.lines = answers;
            c.next = 0;
            c.prompts = 0;
            creset(&c);
            char name[32];
            snprintf(name, sizeof name, "<cell %d>", blocks);
            bool ok = drun(s, &c, code.data ? code.data : "", name);
            CHECK_MSG(ok == (n_err == 0), "block %d: %s\n%s", blocks, ok ? "no error" : "failed",
                      c.out.data);
            for (int i = 0; i < n_exp; i++)
                CHECK_MSG(strstr(c.out.data, expects[i]), "block %d: want '%s' in:\n%s", blocks,
                          expects[i], c.out.data);
            for (int i = 0; i < n_err; i++)
                CHECK_MSG(strstr(c.out.data, errors[i]), "block %d: want error '%s' in:\n%s",
                          blocks, errors[i], c.out.data);
            CHECK_MSG(c.next == n_ans, "block %d: %d of %d answers used", blocks, c.next, n_ans);
            for (int i = 0; i < n_ans; i++) free((char *)answers[i]);
            for (int i = 0; i < n_exp; i++) free(expects[i]);
            for (int i = 0; i < n_err; i++) free(errors[i]);
            n_ans = n_exp = n_err = 0;
        } else if (in && !strncmp(line, "(nndb) ", 7) && n_ans < 63) {
            answers[n_ans++] = strdup(line + 7);
        } else if (in && !strncmp(line, "# expect: ", 10) && n_exp < 32) {
            expects[n_exp++] = strdup(line + 10);
        } else if (in && !strncmp(line, "# expect error: ", 16) && n_err < 4) {
            errors[n_err++] = strdup(line + 16);
        } else if (in) {
            lang_buf_puts(&code, line);
            lang_buf_puts(&code, "\n");
        }
        free(line);
    }
    CHECK(blocks >= 8);
    lang_buf_free(&code);
    dfree(s, &c);
    free(text);
}

NN_TEST(debug_user_modules_and_torch_names) {
    static const char *const cmds[] = {"c", NULL};
    dcap c;
    lang_session *s = dsession(&c, cmds);
    CHECK(drun(s, &c,
               "import torch\nimport torch.nn as nn\n"
               "class MLP(nn.Module):\n"
               "    def __init__(self):\n"
               "        super().__init__()\n"
               "        self.fc1 = nn.Linear(2, 8)\n"
               "        self.fc2 = nn.Linear(8, 3)\n"
               "    def forward(self, x):\n"
               "        return self.fc2(torch.tanh(self.fc1(x)))\n"
               "torch.manual_seed(0)\nmodel = MLP()\nx = torch.randn(4, 2)\n",
               "<cell 1>"));
    CHECK(drun(s, &c, "%break model.fc2\ny = model(x)", "<cell 2>"));
    CHECK_MSG(strstr(c.out.data, "forward linear, op 3 of this statement, in model.fc2"), "%s",
              c.out.data);
    CHECK(strstr(c.out.data, "inputs[1] model.fc2.weight"));
    CHECK(strstr(c.out.data, "at <cell 1>:9")); /* the line inside forward() */
    creset(&c);
    CHECK(!drun(s, &c,
                "%delete all\ntorch.autograd.set_detect_anomaly(True)\n"
                "try:\n    z = torch.log(x - 10)\nexcept RuntimeError as e:\n    print('caught', "
                "'log produced' in str(e))\n"
                "with torch.autograd.detect_anomaly():\n    w = torch.log(x * 0)",
                "<cell 3>"));
    CHECK_MSG(strstr(c.out.data, "caught True"), "%s", c.out.data);
    CHECK(strstr(c.out.data, "AnomalyError: forward: log produced an infinity from finite inputs"));
    dfree(s, &c);
}
