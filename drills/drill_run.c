/* The drill runner (drill.h): %drill on a session, progress and evidence
 * per user and drill, saved atomically, and exports.
 *
 * Progress lives in $XDG_DATA_HOME/nndb/drills/ID.json (default
 * ~/.local/share/nndb/drills/). Every save takes an exclusive lock on
 * ID.lock, writes ID.json.tmp.PID, fsyncs it, renames it over ID.json and
 * fsyncs the directory: a reader sees the old file or the new one, never a
 * torn one, whatever is killed when, and two sessions of one user cannot
 * interleave their writes. The JSON is documented by
 * docs/drill-evidence.schema.json.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drill.h"

typedef struct runner {
    lang_session *s;
    drill *d;     /* the active drill, or NULL */
    cJSON *state; /* its progress */
    int step;     /* current step index */
    bool setup_done;
    bool recording; /* the observer records inputs */
    /* A check ran inside a cell that has not finished yet: the observer adds
     * that cell to the attempt (runs[pending_run] of step pending_step). */
    int pending_step, pending_run;
    int magic_step; /* the step when a %drill command began, for its cell; -1 none */
    char *said;     /* what the runner wrote during that check (cut from the cell's output) */
    bool watch;     /* %drill watch: the check runs after each statement of a do step */
    bool watching;  /* that check is running (its own statements are not watched) */
} runner;

/* The runner of each session that has %drill (drill_prompt finds it). */
enum { MAX_RUNNERS = 16 };
static runner *g_runners[MAX_RUNNERS];

static const char *jstr(const cJSON *o, const char *k);

/* ---- time, paths, atomic files ---- */

static void now_iso(char *buf, size_t cap) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int mkdirs(const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0755) && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

/* The progress directory (created); false when there is no home. */
static bool data_dir_path(char *buf, size_t cap) {
    const char *x = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    if (x && *x)
        snprintf(buf, cap, "%s/nndb/drills", x);
    else if (home && *home)
        snprintf(buf, cap, "%s/.local/share/nndb/drills", home);
    else
        return false;
    return true;
}

static bool data_dir(char *buf, size_t cap) {
    return data_dir_path(buf, cap) && mkdirs(buf) == 0;
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) {
            char *p = realloc(b, cap * 2);
            if (!p) {
                free(b);
                b = NULL;
                break;
            }
            b = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (b) b[n] = 0;
    return b;
}

/* Write [text] to [path] atomically (see the top of the file). */
static bool write_atomic(const char *dir, const char *path, const char *text) {
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return false;
    size_t n = strlen(text), off = 0;
    while (off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w <= 0) {
            close(fd);
            unlink(tmp);
            return false;
        }
        off += (size_t)w;
    }
    if (fsync(fd) || close(fd)) {
        unlink(tmp);
        return false;
    }
    if (rename(tmp, path)) {
        unlink(tmp);
        return false;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return true;
}

static int lock_drill(const char *dir, const char *id) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.lock", dir, id);
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd >= 0) flock(fd, LOCK_EX);
    return fd;
}

static void unlock_drill(int fd) {
    if (fd < 0) return;
    flock(fd, LOCK_UN);
    close(fd);
}

/* The saved progress of [id], or NULL (none, or unreadable: a file that
 * does not parse is kept aside as ID.json.bad and a fresh start made). */
static cJSON *load_progress(const char *id) {
    char dir[4096], path[4200];
    struct stat sb;
    if (!data_dir_path(dir, sizeof dir)) return NULL;
    snprintf(path, sizeof path, "%s/%s.json", dir, id);
    if (stat(path, &sb)) return NULL; /* nothing saved: create nothing either */
    int lk = lock_drill(dir, id);
    char *text = read_all(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    if (text && (!j || !cJSON_IsObject(j))) {
        char bad[4300];
        snprintf(bad, sizeof bad, "%s.bad", path);
        rename(path, bad);
        cJSON_Delete(j);
        j = NULL;
    }
    free(text);
    unlock_drill(lk);
    return j;
}

static bool save_progress(runner *r) {
    char dir[4096], path[4200];
    if (!r->d || !r->state || !data_dir(dir, sizeof dir)) return false;
    snprintf(path, sizeof path, "%s/%s.json", dir, r->d->id);
    char ts[32];
    now_iso(ts, sizeof ts);
    cJSON_DeleteItemFromObject(r->state, "updated");
    cJSON_AddStringToObject(r->state, "updated", ts);
    cJSON_DeleteItemFromObject(r->state, "step");
    cJSON_AddNumberToObject(r->state, "step", r->step);
    char *text = cJSON_Print(r->state);
    if (!text) return false;
    int lk = lock_drill(dir, r->d->id);
    bool ok = write_atomic(dir, path, text);
    unlock_drill(lk);
    free(text);
    return ok;
}

/* ---- state ---- */

static cJSON *step_state(runner *r, int i) {
    cJSON *steps = cJSON_GetObjectItem(r->state, "steps");
    return cJSON_GetArrayItem(steps, i);
}

static bool step_done(runner *r, int i) {
    return cJSON_IsTrue(cJSON_GetObjectItem(step_state(r, i), "done"));
}

static void set_done(runner *r, int i) {
    cJSON *st = step_state(r, i);
    cJSON_DeleteItemFromObject(st, "done");
    cJSON_AddTrueToObject(st, "done");
}

static cJSON *fresh_state(const drill *d) {
    cJSON *j = cJSON_CreateObject();
    char ts[32];
    now_iso(ts, sizeof ts);
    const char *user = getenv("NNDB_DRILL_NAME");
    if (!user || !*user) user = getenv("USER");
    cJSON_AddStringToObject(j, "schema", "nndb-drill-evidence/1");
    cJSON_AddStringToObject(j, "drill", d->id);
    cJSON_AddStringToObject(j, "title", d->title);
    cJSON_AddStringToObject(j, "user", user && *user ? user : "unknown");
    cJSON_AddStringToObject(j, "started", ts);
    cJSON_AddStringToObject(j, "status", "in progress");
    cJSON *steps = cJSON_AddArrayToObject(j, "steps");
    for (int i = 0; i < d->n_steps; i++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "kind", drill_kind_name(d->steps[i].kind));
        cJSON_AddStringToObject(s, "title", d->steps[i].title);
        cJSON_AddFalseToObject(s, "done");
        cJSON_AddNumberToObject(s, "hints_used", 0);
        cJSON_AddItemToArray(steps, s);
    }
    cJSON_AddArrayToObject(j, "evidence");
    return j;
}

/* A saved state that no longer fits the drill (steps changed) starts over. */
static bool state_fits(const cJSON *j, const drill *d) {
    cJSON *steps = cJSON_GetObjectItem(j, "steps");
    if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) != d->n_steps) return false;
    if (!cJSON_IsArray(cJSON_GetObjectItem(j, "evidence"))) return false;
    for (int i = 0; i < d->n_steps; i++) {
        cJSON *k = cJSON_GetObjectItem(cJSON_GetArrayItem(steps, i), "kind");
        if (!cJSON_IsString(k) || strcmp(k->valuestring, drill_kind_name(d->steps[i].kind)))
            return false;
    }
    return true;
}

/* ---- output ---- */

static void say(runner *r, const char *text) {
    if (r->pending_run >= 0 && !r->said) r->said = strdup(text);
    lang_session_write(r->s, LANG_STDOUT, text);
}

/* Show step [i]: text/markdown for Jupyter, text/plain for the terminal. */
static void show_step(runner *r, int i) {
    const drill *d = r->d;
    const drill_step *st = &d->steps[i];
    char head[512];
    snprintf(head, sizeof head, "[%s] step %d of %d \xe2\x80\x94 %s: %s", d->id, i + 1, d->n_steps,
             drill_kind_name(st->kind), st->title);
    size_t need = strlen(head) + strlen(st->text ? st->text : "") + 2048;
    for (int k = 0; k < st->n_choices; k++) need += strlen(st->choices[k]) + 16;
    char *plain = malloc(need), *md = malloc(need);
    if (!plain || !md) {
        free(plain);
        free(md);
        return;
    }
    int p = snprintf(plain, need, "%s\n\n%s\n", head, st->text ? st->text : "");
    int m = snprintf(md, need, "**%s**\n\n%s\n", head, st->text ? st->text : "");
    for (int k = 0; k < st->n_choices; k++) {
        p += snprintf(plain + p, need - (size_t)p, "  %c) %s\n", 'a' + k, st->choices[k]);
        m += snprintf(md + m, need - (size_t)m, "- **%c)** %s\n", 'a' + k, st->choices[k]);
    }
    const char *how =
        st->kind == DRILL_PREDICT ? "Write your prediction: %drill predict TEXT"
        : st->kind == DRILL_DO
            ? (st->n_hints ? "Work in this session; %drill check when you think it holds (%drill "
                             "hint for a hint)"
                           : "Work in this session; %drill check when you think it holds")
        : st->kind == DRILL_QUIZ    ? "Answer: %drill answer TEXT"
        : st->kind == DRILL_REFLECT ? "Explain it back: %drill answer TEXT"
                                    : "%drill next goes on";
    p += snprintf(plain + p, need - (size_t)p, "\n(%s)\n", how);
    m += snprintf(md + m, need - (size_t)m, "\n*%s*\n", how);
    lang_mime mb;
    lang_mime_init(&mb);
    lang_mime_add(&mb, "text/plain", plain);
    lang_mime_add(&mb, "text/markdown", md);
    lang_session_show(r->s, &mb);
    lang_mime_free(&mb);
}

/* A check is evaluated by this helper in the learner's session, so that it
 * runs once and says what it got: the value of each side of a failing
 * comparison, or the falsy value. It always raises: DrillHolds or
 * DrillNotYet with that text (the seam's truth reports "Name: message"),
 * or the check's own error. */
static const char *const check_helper =
    "def _nndb_drill_check(_src, _filename):\n"
    "    import ast, operator\n"
    "    class DrillHolds(Exception): pass\n"
    "    class DrillNotYet(Exception): pass\n"
    "    g = globals()\n"
    "    ops = {ast.Lt: ('<', operator.lt), ast.LtE: ('<=', operator.le),\n"
    "           ast.Gt: ('>', operator.gt), ast.GtE: ('>=', operator.ge),\n"
    "           ast.Eq: ('==', operator.eq), ast.NotEq: ('!=', operator.ne),\n"
    "           ast.In: ('in', lambda a, b: a in b), ast.NotIn: ('not in', lambda a, b: a not in "
    "b),\n"
    "           ast.Is: ('is', operator.is_), ast.IsNot: ('is not', operator.is_not)}\n"
    "    def show(v):\n"
    "        try:\n"
    "            if hasattr(v, 'numel') and hasattr(v, 'item') and v.numel() == 1:\n"
    "                v = v.item()\n"
    "        except Exception:\n"
    "            pass\n"
    "        t = format(v, '.4g') if isinstance(v, float) else repr(v)\n"
    "        t = ' '.join(t.split())\n"
    "        return t if len(t) <= 120 else t[:117] + '...'\n"
    "    def seg(node):\n"
    "        t = ast.get_source_segment(_src, node) or ast.unparse(node)\n"
    "        return ' '.join(t.split())\n"
    "    def ev(node):\n"
    "        return eval(compile(ast.Expression(node), _filename, 'eval'), g)\n"
    "    def describe(node):\n"
    "        if isinstance(node, ast.BoolOp):\n"
    "            texts = []\n"
    "            for part in node.values:\n"
    "                ok, t = describe(part)\n"
    "                texts.append(t)\n"
    "                if isinstance(node.op, ast.And) and not ok:\n"
    "                    return False, t\n"
    "                if isinstance(node.op, ast.Or) and ok:\n"
    "                    return True, t\n"
    "            return isinstance(node.op, ast.And), '; '.join(texts)\n"
    "        if isinstance(node, ast.Compare) and all(type(o) in ops for o in node.ops):\n"
    "            left, texts = ev(node.left), []\n"
    "            lnode = node.left\n"
    "            for op, comp in zip(node.ops, node.comparators):\n"
    "                right = ev(comp)\n"
    "                sym, fn = ops[type(op)]\n"
    "                want = sym + ' ' + seg(comp)\n"
    "                if not isinstance(comp, ast.Constant):\n"
    "                    want += ' (= ' + show(right) + ')'\n"
    "                head = seg(lnode)\n"
    "                if not isinstance(lnode, ast.Constant):\n"
    "                    head += ' = ' + show(left)\n"
    "                if not bool(fn(left, right)):\n"
    "                    return False, head + ', wanted ' + want\n"
    "                texts.append(head + ' (wanted ' + want + ')')\n"
    "                left, lnode = right, comp\n"
    "            return True, '; '.join(texts)\n"
    "        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):\n"
    "            v = ev(node.operand)\n"
    "            return (not v), seg(node.operand) + ' = ' + show(v) + ', wanted it false'\n"
    "        v = ev(node)\n"
    "        return bool(v), seg(node) + ' = ' + show(v)\n"
    "    tree = ast.parse(_src.strip(), _filename, 'eval')\n"
    "    ok, text = describe(tree.body)\n"
    "    raise (DrillHolds if ok else DrillNotYet)(text)\n";

/* [s] as a Python string literal. */
static void py_quote(lang_buf *b, const char *s) {
    lang_buf_puts(b, "'");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '\\' || *c == '\'')
            lang_buf_printf(b, "\\%c", *c);
        else if (*c == '\n')
            lang_buf_puts(b, "\\n");
        else if (*c < 0x20 || *c == 0x7f)
            lang_buf_printf(b, "\\x%02x", *c);
        else
            lang_buf_add(b, (const char *)c, 1);
    }
    lang_buf_puts(b, "'");
}

/* Evaluate [expr] in [s]: 1 holds, 0 false, -1 an error (in *err); *got
 * says what it got (malloc'ed), for both outcomes. */
static int evaluate_check(lang_session *s, const char *expr, const char *filename, char **got,
                          char **err) {
    *got = NULL;
    *err = NULL;
    lang_session_run(s, check_helper, "<drill>", NULL);
    lang_buf call;
    lang_buf_init(&call);
    lang_buf_puts(&call, "_nndb_drill_check(");
    py_quote(&call, expr);
    lang_buf_puts(&call, ", ");
    py_quote(&call, filename);
    lang_buf_puts(&call, ")");
    char *e = NULL;
    int t = lang_session_truth(s, call.data, filename, &e);
    lang_buf_free(&call);
    if (t == 1) { /* the helper did not run as expected: plain truth */
        free(e);
        return lang_session_truth(s, expr, filename, err);
    }
    static const char holds[] = "DrillHolds: ", not_yet[] = "DrillNotYet: ";
    if (e && !strncmp(e, holds, sizeof holds - 1)) {
        *got = strdup(e + sizeof holds - 1);
        free(e);
        return 1;
    }
    if (e && !strncmp(e, not_yet, sizeof not_yet - 1)) {
        *got = strdup(e + sizeof not_yet - 1);
        free(e);
        return 0;
    }
    *err = e;
    return -1;
}

/* `drill_dir` in the session: the drill file's directory, so a setup can
 * reach data that ships with the drill (drill_dir + "/data/..."). */
static void bind_drill_dir(lang_session *s, const drill *d) {
    char dir[4096], code[8300];
    snprintf(dir, sizeof dir, "%s", d->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    size_t k = (size_t)snprintf(code, sizeof code, "drill_dir = '");
    for (const char *c = dir; *c && k + 4 < sizeof code; c++) {
        if (*c == '\\' || *c == '\'') code[k++] = '\\';
        code[k++] = *c;
    }
    snprintf(code + k, sizeof code - k, "'\n");
    lang_session_run(s, code, "<drill>", NULL);
}

/* A do step's setup in the learner's session. Datasets it builds keep
 * their planted bugs out of their repr and description (nndb.data), so
 * looking at the data shows the symptom, not the answer. */
static bool run_setup(runner *r, const char *code, char **err) {
    lang_session_run(r->s, "__import__('nndb.data').data._hide_planted(True)", "<drill>", NULL);
    bool ok = lang_session_run(r->s, code, r->d->path, err);
    lang_session_run(r->s, "__import__('nndb.data').data._hide_planted(False)", "<drill>", NULL);
    return ok;
}

/* Entering step [i]: a do step's setup runs in the learner's session. */
static bool enter_step(runner *r, int i) {
    r->step = i;
    r->setup_done = false;
    show_step(r, i);
    const drill_step *st = &r->d->steps[i];
    if (st->kind == DRILL_DO && st->setup) {
        char *err = NULL;
        bool was = r->recording;
        r->recording = false;
        bool ok = run_setup(r, st->setup, &err);
        r->recording = was;
        if (!ok) {
            bool f = lang_session_fail(r->s, LANG_ERR_RUNTIME, "DrillError",
                                       "the setup of step %d of %s failed: %s", i + 1, r->d->id,
                                       err ? err : "");
            free(err);
            return f;
        }
        r->setup_done = true;
    }
    return save_progress(r) || true;
}

/* ---- evidence ---- */

static cJSON *add_evidence(runner *r, const char *kind) {
    cJSON *ev = cJSON_GetObjectItem(r->state, "evidence");
    cJSON *e = cJSON_CreateObject();
    char ts[32];
    now_iso(ts, sizeof ts);
    cJSON_AddStringToObject(e, "time", ts);
    cJSON_AddStringToObject(e, "kind", kind);
    cJSON_AddNumberToObject(e, "step", r->step + 1);
    if (cJSON_GetArraySize(ev) >= 2000) cJSON_DeleteItemFromArray(ev, 0); /* keep the newest */
    cJSON_AddItemToArray(ev, e);
    return e;
}

/* The learner's work in [code]: its lines other than %drill commands, or
 * NULL when only %drill lines, comments and blank lines remain. */
static char *work_of(const char *code) {
    lang_buf b;
    lang_buf_init(&b);
    bool any = false;
    const char *p = code;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *q = p;
        while (q < p + n && isspace((unsigned char)*q)) q++;
        bool drill_line = !strncmp(q, "%drill", 6);
        if (!drill_line) {
            if (q < p + n && *q != '#') any = true;
            lang_buf_add(&b, p, n);
            lang_buf_puts(&b, "\n");
        }
        p = nl ? nl + 1 : p + n;
    }
    if (!any) {
        lang_buf_free(&b);
        return NULL;
    }
    while (b.len && isspace((unsigned char)b.data[b.len - 1])) b.data[--b.len] = 0;
    return lang_buf_take(&b);
}

/* One input of an attempt: the work of a cell, its output, value, error. */
static cJSON *attempt_input(const char *time, const char *work, const char *output,
                            const char *value, const char *error) {
    cJSON *in = cJSON_CreateObject();
    cJSON_AddStringToObject(in, "time", time);
    cJSON_AddStringToObject(in, "code", work);
    cJSON_AddStringToObject(in, "output", output ? output : "");
    if (value) cJSON_AddStringToObject(in, "value", value);
    if (error) cJSON_AddStringToObject(in, "error", error);
    return in;
}

/* An attempt's code and output, all its inputs' in order, and the last
 * input's value or error. */
static void join_attempt(cJSON *run) {
    lang_buf code, out;
    lang_buf_init(&code);
    lang_buf_init(&out);
    const char *value = NULL, *error = NULL;
    cJSON *in;
    cJSON_ArrayForEach(in, cJSON_GetObjectItem(run, "inputs")) {
        if (code.len) lang_buf_puts(&code, "\n");
        lang_buf_puts(&code, jstr(in, "code") ? jstr(in, "code") : "");
        lang_buf_puts(&out, jstr(in, "output") ? jstr(in, "output") : "");
        value = jstr(in, "value");
        error = jstr(in, "error");
    }
    cJSON_DeleteItemFromObject(run, "code");
    cJSON_DeleteItemFromObject(run, "output");
    cJSON_DeleteItemFromObject(run, "value");
    cJSON_DeleteItemFromObject(run, "error");
    cJSON_AddStringToObject(run, "code", code.data ? code.data : "");
    cJSON_AddStringToObject(run, "output", out.data ? out.data : "");
    if (value) cJSON_AddStringToObject(run, "value", value);
    if (error) cJSON_AddStringToObject(run, "error", error);
    lang_buf_free(&code);
    lang_buf_free(&out);
}

/* failed_attempt (the first failed attempt) and passed (the passing one)
 * of step [i], copied from its attempt list. */
static void refresh_attempts(runner *r, int i) {
    cJSON *ss = step_state(r, i), *run, *first_failed = NULL, *pass = NULL;
    cJSON_ArrayForEach(run, cJSON_GetObjectItem(ss, "runs")) {
        if (cJSON_IsTrue(cJSON_GetObjectItem(run, "passed")))
            pass = run;
        else if (!first_failed)
            first_failed = run;
    }
    cJSON_DeleteItemFromObject(ss, "failed_attempt");
    cJSON_DeleteItemFromObject(ss, "passed");
    if (first_failed)
        cJSON_AddItemToObject(ss, "failed_attempt", cJSON_Duplicate(first_failed, true));
    if (pass) cJSON_AddItemToObject(ss, "passed", cJSON_Duplicate(pass, true));
}

/* %drill watch: after a statement of the learner's at a do step (not a
 * %drill command, not the cell that ran %drill check), run the step's check
 * and say on one line where it stands. Nothing is recorded: %drill check
 * records the attempt, so the evidence keeps the learner's own checks. */
static void watch_after(runner *r, const char *code, bool checked) {
    if (!r->watch || r->watching || checked || !r->d || r->step >= r->d->n_steps) return;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_DO || !st->check) return;
    const char *c = code ? code : "";
    while (isspace((unsigned char)*c)) c++;
    if (!strncmp(c, "%drill", 6) || !*c) return;
    r->watching = true;
    bool was = r->recording;
    r->recording = false;
    char *got = NULL, *err = NULL;
    int t = evaluate_check(r->s, st->check, r->d->path, &got, &err);
    r->recording = was;
    r->watching = false;
    lang_buf line;
    lang_buf_init(&line);
    if (t == 1)
        lang_buf_printf(&line, "[watch] the check holds%s%s: %%drill check records it and goes on.",
                        got ? ": " : "", got ? got : "");
    else if (err)
        lang_buf_printf(&line, "[watch] not yet: the check raised %s", err);
    else
        lang_buf_printf(&line, "[watch] not yet: %s", got ? got : st->check);
    for (size_t i = 0; i < line.len; i++)
        if (line.data[i] == '\n' || line.data[i] == '\r') line.data[i] = ' ';
    lang_buf_puts(&line, "\n");
    say(r, line.data);
    lang_buf_free(&line);
    free(got);
    free(err);
}

static void observe(void *user, const char *code, const char *filename, const lang_result *res,
                    const char *output) {
    runner *r = user;
    if (!r->d || !r->recording) {
        r->pending_run = -1;
        r->magic_step = -1;
        free(r->said);
        r->said = NULL;
        return;
    }
    bool pending = r->pending_run >= 0 && r->pending_step < r->d->n_steps;
    int step = pending                                               ? r->pending_step
               : r->magic_step >= 0 && r->magic_step < r->d->n_steps ? r->magic_step
                                                                     : r->step;
    r->magic_step = -1;
    /* the cell's own output, without what the check wrote */
    char *own = strdup(output ? output : "");
    if (own && pending && r->said) {
        char *cut = strstr(own, r->said);
        if (cut) *cut = 0;
    }
    cJSON *e = add_evidence(r, "input");
    cJSON_ReplaceItemInObject(e, "step", cJSON_CreateNumber(step + 1));
    cJSON_AddStringToObject(e, "code", code);
    cJSON_AddStringToObject(e, "output", output ? output : "");
    char value[2048] = "", error[2048] = "";
    if (res->ok && res->has_value) {
        const char *v = lang_mime_get(&res->value, "text/plain");
        if (v) {
            snprintf(value, sizeof value, "%s", v);
            cJSON_AddStringToObject(e, "value", value);
        }
    }
    if (!res->ok) {
        snprintf(error, sizeof error, "%s: %s", res->error.ename ? res->error.ename : "Error",
                 res->error.evalue ? res->error.evalue : "");
        cJSON_AddStringToObject(e, "error", error);
    }
    if (pending) {
        /* the cell that held the check: log it before the check, and its
         * work is the end of that attempt */
        cJSON *ev = cJSON_GetObjectItem(r->state, "evidence");
        int n = cJSON_GetArraySize(ev);
        for (int i = n - 2; i >= 0; i--) {
            const char *k = jstr(cJSON_GetArrayItem(ev, i), "kind");
            if (k && !strncmp(k, "check", 5)) {
                /* move what followed the check behind this input (Debian's
                 * cJSON 1.7.15 loses an item given to cJSON_InsertItemInArray) */
                for (int m = i; m < n - 1; m++)
                    cJSON_AddItemToArray(ev, cJSON_DetachItemFromArray(ev, i));
                break;
            }
        }
        char *work = work_of(code);
        cJSON *run =
            cJSON_GetArrayItem(cJSON_GetObjectItem(step_state(r, step), "runs"), r->pending_run);
        if (work && run) {
            cJSON *inputs = cJSON_GetObjectItem(run, "inputs");
            cJSON_AddItemToArray(inputs,
                                 attempt_input(jstr(e, "time"), work, own, *value ? value : NULL,
                                               *error ? error : NULL));
            join_attempt(run);
            refresh_attempts(r, step);
        }
        free(work);
        r->pending_run = -1;
        free(r->said);
        r->said = NULL;
    }
    free(own);
    save_progress(r);
    watch_after(r, code, pending);
}

/* A new attempt of the current do step: the learner's work since the
 * previous check of this step (or since the step began), every input in
 * order. The cell that holds the check is added when it finishes. */
static cJSON *new_attempt(runner *r) {
    cJSON *run = cJSON_CreateObject();
    char ts[32];
    now_iso(ts, sizeof ts);
    cJSON_AddStringToObject(run, "time", ts);
    cJSON *inputs = cJSON_AddArrayToObject(run, "inputs");
    cJSON *ev = cJSON_GetObjectItem(r->state, "evidence");
    int n = cJSON_GetArraySize(ev), from = 0;
    for (int i = n - 1; i >= 0; i--) {
        cJSON *e = cJSON_GetArrayItem(ev, i);
        const char *k = jstr(e, "kind");
        cJSON *sn = cJSON_GetObjectItem(e, "step");
        if (k && !strncmp(k, "check", 5) && cJSON_IsNumber(sn) && sn->valueint == r->step + 1) {
            from = i + 1;
            break;
        }
    }
    for (int i = from; i < n; i++) {
        cJSON *e = cJSON_GetArrayItem(ev, i);
        const char *k = jstr(e, "kind");
        cJSON *sn = cJSON_GetObjectItem(e, "step");
        if (!k || strcmp(k, "input") || !cJSON_IsNumber(sn) || sn->valueint != r->step + 1 ||
            !jstr(e, "code"))
            continue;
        char *work = work_of(jstr(e, "code"));
        if (!work) continue;
        cJSON_AddItemToArray(inputs,
                             attempt_input(jstr(e, "time") ? jstr(e, "time") : ts, work,
                                           jstr(e, "output"), jstr(e, "value"), jstr(e, "error")));
        free(work);
    }
    join_attempt(run);
    return run;
}

/* ---- commands ---- */

/* A mistake in a command: one line with the fix, on stderr, no traceback;
 * nothing changes and the cell goes on. */
static bool usage(runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool usage(runner *r, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if (*c == '\n') *c = ' ';
    lang_session_write(r->s, LANG_STDERR, line);
    lang_session_write(r->s, LANG_STDERR, "\n");
    return true;
}

/* What step [st] waits for, as the command to type. */
static const char *what_now(const drill_step *st) {
    return st->kind == DRILL_PREDICT   ? "%drill predict TEXT"
           : st->kind == DRILL_DO      ? "work in the session, then %drill check"
           : st->kind == DRILL_QUIZ    ? "%drill answer TEXT"
           : st->kind == DRILL_REFLECT ? "%drill answer TEXT"
                                       : "%drill next";
}

static bool need_drill(runner *r) {
    if (r->d) return true;
    return !usage(r, "no drill is running: %%drill list shows them, %%drill start ID begins one");
}

static bool advance(runner *r) {
    for (int i = r->step + 1; i < r->d->n_steps; i++) return enter_step(r, i);
    cJSON_DeleteItemFromObject(r->state, "status");
    cJSON_AddStringToObject(r->state, "status", "done");
    char ts[32];
    now_iso(ts, sizeof ts);
    cJSON_DeleteItemFromObject(r->state, "finished");
    cJSON_AddStringToObject(r->state, "finished", ts);
    save_progress(r);
    /* the track's last step: the prediction next to the evidence */
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "Drill %s is done. Your prediction against the evidence:\n", r->d->id);
    for (int i = 0; i < r->d->n_steps; i++) {
        cJSON *ss = step_state(r, i);
        cJSON *p = cJSON_GetObjectItem(ss, "prediction");
        if (p) lang_buf_printf(&b, "  you predicted: %s\n", jstr(p, "text") ? jstr(p, "text") : "");
        if (r->d->steps[i].kind != DRILL_DO) continue;
        cJSON *att = cJSON_GetObjectItem(ss, "attempts"),
              *hu = cJSON_GetObjectItem(ss, "hints_used");
        cJSON *fa = cJSON_GetObjectItem(ss, "failed_attempt");
        lang_buf_printf(&b, "  %s: the check held after %d check%s and %d hint%s",
                        r->d->steps[i].title, att ? att->valueint : 0,
                        att && att->valueint == 1 ? "" : "s", hu ? hu->valueint : 0,
                        hu && hu->valueint == 1 ? "" : "s");
        if (fa && jstr(fa, "code") && *jstr(fa, "code")) {
            char code[124];
            snprintf(code, sizeof code, "%s", jstr(fa, "code"));
            for (char *c = code; *c; c++)
                if (*c == '\n') *c = ';';
            lang_buf_printf(&b, "; first failed attempt: %s", code);
        }
        lang_buf_puts(&b, "\n");
    }
    lang_buf_puts(&b, "%drill export md writes all of it (prediction, failed attempt, passing run, "
                      "answers).\n");
    say(r, b.data);
    lang_buf_free(&b);
    return true;
}

static bool cmd_start(runner *r, const char *id) {
    if (!*id) return usage(r, "%%drill start needs a drill id (%%drill list)");
    char *path = strchr(id, '/') ? strdup(id) : drill_find(id);
    if (!path)
        return usage(r, "no drill '%s' (%%drill list shows them; NNDB_DRILLS_PATH adds yours)", id);
    char *err = NULL;
    drill *d = drill_load(path, &err);
    free(path);
    if (!d) {
        bool f = usage(r, "%s", err ? err : "cannot read the drill");
        free(err);
        return f;
    }
    if (r->d && strcmp(r->d->id, d->id) && jstr(r->state, "status") &&
        strcmp(jstr(r->state, "status"), "done")) {
        /* another drill is open: ask before leaving it (its progress is saved) */
        char q[512];
        snprintf(q, sizeof q, "You are on step %d of %d of %s; leave it for %s (y/[n])? ",
                 r->step + 1, r->d->n_steps, r->d->id, d->id);
        char *ans = lang_session_readline(r->s, q);
        bool no = ans && ans[0] != 'y' && ans[0] != 'Y';
        if (!ans) {
            snprintf(q, sizeof q,
                     "Leaving %s at step %d (its progress is saved: %%drill start %s resumes "
                     "it).\n",
                     r->d->id, r->step + 1, r->d->id);
            say(r, q);
        }
        free(ans);
        if (no) {
            drill_free(d);
            snprintf(q, sizeof q, "Still on %s.\n", r->d->id);
            say(r, q);
            return true;
        }
    }
    save_progress(r);
    drill_free(r->d);
    cJSON_Delete(r->state);
    r->pending_run = -1;
    r->magic_step = -1;
    r->d = d;
    cJSON *saved = load_progress(d->id);
    int step = 0;
    if (saved && state_fits(saved, d)) {
        r->state = saved;
        cJSON *sj = cJSON_GetObjectItem(saved, "step");
        step =
            cJSON_IsNumber(sj) && sj->valueint >= 0 && sj->valueint < d->n_steps ? sj->valueint : 0;
        char line[256];
        snprintf(line, sizeof line, "Resuming %s at step %d of %d.\n", d->id, step + 1, d->n_steps);
        say(r, line);
    } else {
        cJSON_Delete(saved);
        r->state = fresh_state(d);
    }
    r->recording = true;
    bind_drill_dir(r->s, d);
    /* a resumed do step needs the setups of the steps before it */
    for (int i = 0; i < step; i++) {
        const drill_step *st = &d->steps[i];
        if (st->kind == DRILL_DO && st->setup) run_setup(r, st->setup, NULL);
        if (st->kind == DRILL_DO && step_done(r, i) && st->reference)
            lang_session_run(r->s, st->reference, d->path, NULL);
    }
    return enter_step(r, step);
}

static bool cmd_predict(runner *r, const char *text) {
    if (!need_drill(r)) return true;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_PREDICT)
        return usage(r, "step %d is a %s step, not a prediction", r->step + 1,
                     drill_kind_name(st->kind));
    char *asked = NULL;
    if (!*text) asked = lang_session_readline(r->s, "Your prediction: ");
    const char *t = *text ? text : asked;
    if (!t || !*t) {
        free(asked);
        return usage(
            r, "write the prediction after the command: %%drill predict the loss stays near 2.3");
    }
    cJSON *ss = step_state(r, r->step);
    cJSON *p = cJSON_CreateObject();
    char ts[32];
    now_iso(ts, sizeof ts);
    cJSON_AddStringToObject(p, "text", t);
    cJSON_AddStringToObject(p, "time", ts);
    cJSON_DeleteItemFromObject(ss, "prediction");
    cJSON_AddItemToObject(ss, "prediction", p);
    cJSON *e = add_evidence(r, "prediction");
    cJSON_AddStringToObject(e, "text", t);
    set_done(r, r->step);
    free(asked);
    say(r, "Prediction recorded. You will compare it with what happens.\n");
    return advance(r);
}

static bool cmd_check(runner *r) {
    if (!need_drill(r)) return true;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_DO)
        return usage(r, "step %d is a %s step: nothing to check (%s)", r->step + 1,
                     drill_kind_name(st->kind), what_now(st));
    int step = r->step;
    cJSON *run = new_attempt(r);
    char *err = NULL, *got = NULL;
    int t = evaluate_check(r->s, st->check, r->d->path, &got, &err);
    cJSON *ss = step_state(r, step);
    cJSON *att = cJSON_GetObjectItem(ss, "attempts");
    int n = att ? att->valueint + 1 : 1;
    cJSON_DeleteItemFromObject(ss, "attempts");
    cJSON_AddNumberToObject(ss, "attempts", n);
    cJSON *e = add_evidence(r, t == 1 ? "check passed" : "check failed");
    cJSON_AddStringToObject(e, "check", st->check);
    if (got) cJSON_AddStringToObject(e, "got", got);
    if (err) cJSON_AddStringToObject(e, "error", err);
    cJSON_AddStringToObject(run, "check", st->check);
    cJSON_AddBoolToObject(run, "passed", t == 1);
    if (got) cJSON_AddStringToObject(run, "got", got);
    if (err) cJSON_AddStringToObject(run, "check_error", err);
    cJSON *runs = cJSON_GetObjectItem(ss, "runs");
    if (!runs) runs = cJSON_AddArrayToObject(ss, "runs");
    cJSON_AddItemToArray(runs, run);
    refresh_attempts(r, step);
    /* the cell that holds this check finishes after it: the observer adds
     * its work to this attempt */
    r->pending_step = step;
    r->pending_run = cJSON_GetArraySize(runs) - 1;
    free(r->said);
    r->said = NULL;
    lang_buf line;
    lang_buf_init(&line);
    if (t == 1) {
        lang_buf_printf(&line, "\xe2\x9c\x93 The check holds%s%s.\n", got ? ": " : "",
                        got ? got : "");
        set_done(r, step);
        say(r, line.data);
        lang_buf_free(&line);
        free(err);
        free(got);
        return advance(r);
    }
    cJSON *hu = cJSON_GetObjectItem(ss, "hints_used");
    bool more_hints = (hu ? hu->valueint : 0) < st->n_hints;
    if (err)
        lang_buf_printf(&line, "Not yet: the check raised %s.", err);
    else
        lang_buf_printf(&line, "Not yet: %s%s%s.", st->check_message ? st->check_message : "",
                        st->check_message ? ": " : "", got ? got : st->check);
    if (more_hints) lang_buf_puts(&line, " %drill hint gives a hint.");
    /* one line, whatever the values held */
    for (size_t i = 0; i < line.len; i++)
        if (line.data[i] == '\n' || line.data[i] == '\r') line.data[i] = ' ';
    lang_buf_puts(&line, "\n");
    say(r, line.data);
    lang_buf_free(&line);
    free(err);
    free(got);
    save_progress(r);
    return true;
}

static bool cmd_hint(runner *r) {
    if (!need_drill(r)) return true;
    const drill_step *st = &r->d->steps[r->step];
    cJSON *ss = step_state(r, r->step);
    cJSON *hu = cJSON_GetObjectItem(ss, "hints_used");
    int used = hu ? hu->valueint : 0;
    if (used >= st->n_hints) {
        say(r, st->n_hints ? "No more hints for this step.\n" : "This step has no hints.\n");
        return true;
    }
    char line[1200];
    snprintf(line, sizeof line, "Hint %d of %d: %s\n", used + 1, st->n_hints, st->hints[used]);
    say(r, line);
    cJSON_DeleteItemFromObject(ss, "hints_used");
    cJSON_AddNumberToObject(ss, "hints_used", used + 1);
    cJSON *e = add_evidence(r, "hint");
    cJSON_AddNumberToObject(e, "hint", used + 1);
    save_progress(r);
    return true;
}

static bool cmd_answer(runner *r, const char *text) {
    if (!need_drill(r)) return true;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_QUIZ && st->kind != DRILL_REFLECT)
        return usage(r, "step %d is a %s step: no answer is asked", r->step + 1,
                     drill_kind_name(st->kind));
    char *asked = NULL;
    if (!*text) asked = lang_session_readline(r->s, "Your answer: ");
    if (asked) text = asked;
    if (!*text) {
        free(asked);
        return usage(r, "write the answer after the command: %%drill answer %s",
                     st->kind == DRILL_QUIZ && st->n_choices ? "b" : "YOUR WORDS");
    }
    cJSON *ss = step_state(r, r->step);
    cJSON *answers = cJSON_GetObjectItem(ss, "answers");
    if (!answers) answers = cJSON_AddArrayToObject(ss, "answers");
    cJSON *a = cJSON_CreateObject();
    char ts[32];
    now_iso(ts, sizeof ts);
    cJSON_AddStringToObject(a, "text", text);
    cJSON_AddStringToObject(a, "time", ts);
    bool right = st->kind == DRILL_REFLECT || drill_quiz_accepts(st, text);
    if (st->kind == DRILL_QUIZ) cJSON_AddBoolToObject(a, "correct", right);
    cJSON_AddItemToArray(answers, a);
    cJSON *e = add_evidence(r, "answer");
    cJSON_AddStringToObject(e, "text", text);
    if (!right) {
        cJSON *hu = cJSON_GetObjectItem(ss, "hints_used");
        say(r, (hu ? hu->valueint : 0) < st->n_hints ? "Not quite. Try again, or %drill hint.\n"
                                                     : "Not quite. Try again.\n");
        save_progress(r);
        free(asked);
        return true;
    }
    free(asked);
    set_done(r, r->step);
    say(r, st->kind == DRILL_QUIZ ? "\xe2\x9c\x93 Right.\n" : "Recorded.\n");
    return advance(r);
}

static bool cmd_next(runner *r) {
    if (!need_drill(r)) return true;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_READ && !step_done(r, r->step))
        return usage(r, "finish step %d first (%s): %s", r->step + 1, drill_kind_name(st->kind),
                     st->kind == DRILL_PREDICT ? "%drill predict TEXT"
                     : st->kind == DRILL_DO    ? "make the check hold, then %drill check"
                                               : "%drill answer TEXT");
    if (st->kind == DRILL_READ) set_done(r, r->step);
    return advance(r);
}

static void list_drills(lang_session *s, FILE *out);

static bool cmd_status(runner *r) {
    if (!r->d) { /* no drill open: progress across the lessons */
        say(r, "No drill is open (%drill start ID). Your progress:\n");
        list_drills(r->s, NULL);
        return true;
    }
    char line[512];
    snprintf(line, sizeof line, "%s \xe2\x80\x94 %s\n", r->d->id, r->d->title);
    say(r, line);
    for (int i = 0; i < r->d->n_steps; i++) {
        cJSON *ss = step_state(r, i);
        cJSON *hu = cJSON_GetObjectItem(ss, "hints_used");
        snprintf(line, sizeof line, "  %s %d. %-8s %s%s\n", i == r->step ? ">" : " ", i + 1,
                 drill_kind_name(r->d->steps[i].kind), r->d->steps[i].title,
                 step_done(r, i)      ? "  (done)"
                 : hu && hu->valueint ? "  (hints used)"
                                      : "");
        say(r, line);
    }
    return true;
}

static const char *status_of(const char *id) {
    cJSON *j = load_progress(id);
    static char buf[32];
    cJSON *st = cJSON_GetObjectItem(j, "status");
    snprintf(buf, sizeof buf, "%s", cJSON_IsString(st) ? st->valuestring : "not started");
    cJSON_Delete(j);
    return buf;
}

/* Every drill on the search path, first directory first (a drill id found
 * twice is the first one's). */
static void list_drills(lang_session *s, FILE *out) {
    char **dirs = drill_search_path();
    char seen[256][64];
    int n_seen = 0;
    char line[1024];
    snprintf(line, sizeof line, "%-20s %-44s %5s  %s\n", "id", "title", "min", "status");
    if (s)
        lang_session_write(s, LANG_STDOUT, line);
    else
        fputs(line, out);
    for (char **d = dirs; d && *d; d++) {
        struct dirent **names = NULL;
        int k = scandir(*d, &names, NULL, alphasort);
        for (int i = 0; i < k; i++) {
            const char *nm = names[i]->d_name;
            size_t l = strlen(nm);
            if (l > 3 && !strcmp(nm + l - 3, ".md") && l - 3 < 64) {
                char id[64];
                snprintf(id, sizeof id, "%.*s", (int)(l - 3), nm);
                bool dup = false;
                for (int j = 0; j < n_seen; j++) dup |= !strcmp(seen[j], id);
                char path[4200];
                snprintf(path, sizeof path, "%s/%s", *d, nm);
                drill *dr = dup ? NULL : drill_load(path, NULL);
                if (dr) {
                    if (n_seen < 256) snprintf(seen[n_seen++], 64, "%s", id);
                    snprintf(line, sizeof line, "%-20s %-44.44s %5d  %s\n", dr->id, dr->title,
                             dr->minutes, status_of(dr->id));
                    if (s)
                        lang_session_write(s, LANG_STDOUT, line);
                    else
                        fputs(line, out);
                    drill_free(dr);
                }
            }
            free(names[i]);
        }
        free(names);
    }
    drill_strv_free(dirs);
}

/* ---- exports ---- */

static const char *jstr(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* [s] as inline code on one line (double backticks when it holds one). */
static void md_code(lang_buf *b, const char *s) {
    const char *tick = strchr(s, '`') ? "`` " : "`";
    lang_buf_puts(b, tick);
    for (const char *c = s; *c; c++) lang_buf_add(b, *c == '\n' || *c == '\r' ? " " : c, 1);
    lang_buf_puts(b, tick[1] ? " ``" : "`");
}

static void md_fence(lang_buf *b, const char *info, const char *text) {
    size_t l = strlen(text);
    lang_buf_printf(b, "````%s\n%s%s````\n\n", info, text, l && text[l - 1] == '\n' ? "" : "\n");
}

/* One attempt: its code, output and value, then what the check got. */
static void md_attempt(lang_buf *b, const char *label, const cJSON *run) {
    lang_buf_printf(b, "### %s", label);
    if (jstr(run, "time")) lang_buf_printf(b, " (%s)", jstr(run, "time"));
    lang_buf_puts(b, "\n\n");
    const char *code = jstr(run, "code");
    if (code && *code)
        md_fence(b, "python", code);
    else
        lang_buf_puts(b, "(no code run since the previous check)\n\n");
    const char *o = jstr(run, "output");
    if (o && *o) {
        lang_buf_puts(b, "Output:\n\n");
        md_fence(b, "", o);
    }
    if (jstr(run, "value")) {
        lang_buf_puts(b, "Value: ");
        md_code(b, jstr(run, "value"));
        lang_buf_puts(b, "\n\n");
    }
    if (jstr(run, "error")) {
        lang_buf_puts(b, "Error: ");
        md_code(b, jstr(run, "error"));
        lang_buf_puts(b, "\n\n");
    }
    if (jstr(run, "check")) {
        lang_buf_puts(b, "Check ");
        md_code(b, jstr(run, "check"));
        if (jstr(run, "check_error")) {
            lang_buf_puts(b, " raised ");
            md_code(b, jstr(run, "check_error"));
        } else {
            lang_buf_printf(
                b, " %s", cJSON_IsTrue(cJSON_GetObjectItem(run, "passed")) ? "held" : "was false");
            if (jstr(run, "got")) {
                lang_buf_puts(b, ": ");
                md_code(b, jstr(run, "got"));
            }
        }
        lang_buf_puts(b, "\n\n");
    }
}

/* The choice a quiz answer names ("b", "2"), or NULL. */
static const char *named_choice(const drill_step *st, const char *answer) {
    char a[8] = "";
    sscanf(answer ? answer : "", " %7s", a);
    size_t l = strlen(a);
    if (l && (a[l - 1] == ')' || a[l - 1] == '.')) a[--l] = 0;
    int k = -1;
    if (l == 1 && tolower((unsigned char)a[0]) >= 'a' && tolower((unsigned char)a[0]) <= 'h')
        k = tolower((unsigned char)a[0]) - 'a';
    else if (l == 1 && a[0] >= '1' && a[0] <= '8')
        k = a[0] - '1';
    return k >= 0 && k < st->n_choices ? st->choices[k] : NULL;
}

static char *export_md(runner *r) {
    lang_buf b;
    lang_buf_init(&b);
    const cJSON *j = r->state;
    lang_buf_printf(&b, "# Drill %s: %s\n\n", r->d->id, r->d->title);
    lang_buf_printf(&b, "- Learner: %s\n- Started: %s\n", jstr(j, "user") ? jstr(j, "user") : "?",
                    jstr(j, "started") ? jstr(j, "started") : "?");
    if (jstr(j, "finished")) lang_buf_printf(&b, "- Finished: %s\n", jstr(j, "finished"));
    if (jstr(j, "updated")) lang_buf_printf(&b, "- Last saved: %s\n", jstr(j, "updated"));
    lang_buf_printf(&b, "- Status: %s\n\n", jstr(j, "status") ? jstr(j, "status") : "?");
    for (int i = 0; i < r->d->n_steps; i++) {
        const drill_step *st = &r->d->steps[i];
        cJSON *ss = step_state(r, i);
        lang_buf_printf(&b, "## %d. %s: %s%s\n\n", i + 1, drill_kind_name(st->kind), st->title,
                        step_done(r, i) ? "" : " (not done)");
        /* the question, as the learner saw it */
        const char *t = st->text ? st->text : "";
        while (*t == '\n') t++;
        while (*t) {
            const char *nl = strchr(t, '\n');
            size_t n = nl ? (size_t)(nl - t) : strlen(t);
            lang_buf_puts(&b, n ? "> " : ">");
            lang_buf_add(&b, t, n);
            lang_buf_puts(&b, "\n");
            t = nl ? nl + 1 : t + n;
        }
        if (st->text && *st->text) lang_buf_puts(&b, "\n");
        for (int k = 0; k < st->n_choices; k++)
            lang_buf_printf(&b, "%s- %c) %s\n", k ? "" : "Choices:\n\n", 'a' + k, st->choices[k]);
        if (st->n_choices) lang_buf_puts(&b, "\n");
        if (st->kind == DRILL_DO && st->setup) {
            lang_buf_puts(&b, "Setup (the input, run when the step began):\n\n");
            md_fence(&b, "python", st->setup);
        }
        if (st->kind == DRILL_DO && st->check) {
            lang_buf_puts(&b, "The check: ");
            md_code(&b, st->check);
            lang_buf_puts(&b, "\n\n");
        }
        cJSON *p = cJSON_GetObjectItem(ss, "prediction");
        if (p)
            lang_buf_printf(&b, "Prediction (%s): %s\n\n", jstr(p, "time") ? jstr(p, "time") : "",
                            jstr(p, "text") ? jstr(p, "text") : "");
        int failed = 0;
        cJSON *run;
        cJSON_ArrayForEach(run, cJSON_GetObjectItem(ss, "runs")) {
            char label[64];
            if (cJSON_IsTrue(cJSON_GetObjectItem(run, "passed")))
                snprintf(label, sizeof label, "Passing attempt");
            else
                snprintf(label, sizeof label, "Failed attempt %d", ++failed);
            md_attempt(&b, label, run);
        }
        cJSON *hu = cJSON_GetObjectItem(ss, "hints_used");
        if (hu && hu->valueint) {
            lang_buf_printf(&b, "Hints taken (%d):\n\n", hu->valueint);
            for (int k = 0; k < hu->valueint && k < st->n_hints; k++)
                lang_buf_printf(&b, "%d. %s\n", k + 1, st->hints[k]);
            lang_buf_puts(&b, "\n");
        }
        cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItem(ss, "answers")) {
            cJSON *c = cJSON_GetObjectItem(a, "correct");
            const char *text = jstr(a, "text") ? jstr(a, "text") : "";
            const char *choice = st->kind == DRILL_QUIZ ? named_choice(st, text) : NULL;
            lang_buf_printf(&b, "%s%s (%s): %s%s%s\n\n",
                            st->kind == DRILL_REFLECT ? "Explanation" : "Answer",
                            c ? (cJSON_IsTrue(c) ? " (right)" : " (not accepted)") : "",
                            jstr(a, "time") ? jstr(a, "time") : "", text, choice ? ") " : "",
                            choice ? choice : "");
        }
    }
    return b.data ? lang_buf_take(&b) : strdup("");
}

static bool cmd_export(runner *r, const char *args) {
    if (!need_drill(r)) return true;
    char fmt[16] = "md", path[4096] = "";
    sscanf(args, "%15s %4095s", fmt, path);
    bool json = !strcmp(fmt, "json");
    if (!json && strcmp(fmt, "md")) return usage(r, "%%drill export takes md or json, then a path");
    save_progress(r);
    char *text = json ? cJSON_Print(r->state) : export_md(r);
    if (!text) return lang_session_fail(r->s, LANG_ERR_MEMORY, "MemoryError", "out of memory");
    if (!*path) snprintf(path, sizeof path, "%s-evidence.%s", r->d->id, json ? "json" : "md");
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        free(text);
        return lang_session_fail(r->s, LANG_ERR_IO, "OSError", "cannot write %s: %s", path,
                                 strerror(errno));
    }
    free(text);
    char line[4200];
    snprintf(line, sizeof line, "Evidence written to %s\n", path);
    say(r, line);
    return true;
}

static bool cmd_reset(runner *r, const char *args) {
    char id[128] = "";
    bool force = false;
    char a[64] = "", b[64] = "";
    sscanf(args, "%63s %63s", a, b);
    if (!strcmp(a, "-f"))
        force = true, snprintf(id, sizeof id, "%s", b);
    else
        snprintf(id, sizeof id, "%s", a), force = !strcmp(b, "-f");
    if (!*id && r->d) snprintf(id, sizeof id, "%s", r->d->id);
    if (!*id) return usage(r, "%%drill reset needs a drill id");
    if (!force) {
        char q[256];
        snprintf(q, sizeof q, "Delete your progress and evidence for %s (y/[n])? ", id);
        char *ans = lang_session_readline(r->s, q);
        bool yes = ans && (ans[0] == 'y' || ans[0] == 'Y');
        free(ans);
        if (!yes) {
            say(r, "Nothing done (%drill reset ID -f deletes without asking).\n");
            return true;
        }
    }
    char dir[4096], path[4200];
    if (data_dir(dir, sizeof dir)) {
        int lk = lock_drill(dir, id);
        snprintf(path, sizeof path, "%s/%s.json", dir, id);
        unlink(path);
        unlock_drill(lk);
    }
    if (r->d && !strcmp(r->d->id, id)) {
        drill_free(r->d);
        cJSON_Delete(r->state);
        r->d = NULL;
        r->state = NULL;
    }
    char line[256];
    snprintf(line, sizeof line, "Progress of %s deleted.\n", id);
    say(r, line);
    return true;
}

static const char drill_help[] =
    "%drill commands:\n"
    "  %drill list                  the drills and your status\n"
    "  %drill start ID              start a drill, or resume it\n"
    "  %drill                       show the current step again\n"
    "  %drill predict [TEXT]        record a prediction (asks when TEXT is empty)\n"
    "  %drill check                 run the step's check on your work\n"
    "  %drill hint                  the next hint\n"
    "  %drill watch [on|off]        run the check after each statement you run\n"
    "  %drill answer [TEXT]         answer a quiz or reflect step (asks when TEXT is empty)\n"
    "  %drill next                  go on after a read step\n"
    "  %drill status                the steps and where you are\n"
    "  %drill whoami [NAME]         the name your evidence carries (or NNDB_DRILL_NAME)\n"
    "  %drill export [md|json] [PATH]  write your evidence\n"
    "  %drill reset ID [-f]         delete your progress for ID\n"
    "  %drill help                  this list\n";

/* The learner's name in the evidence: shown, or set (and saved). */
static bool cmd_whoami(runner *r, const char *name) {
    if (!*name) {
        const char *u = r->d ? jstr(r->state, "user") : NULL;
        const char *env = getenv("NNDB_DRILL_NAME");
        if (!u) u = env && *env ? env : getenv("USER");
        char line[512];
        snprintf(line, sizeof line,
                 "Your evidence is signed %s (%%drill whoami NAME changes it).\n",
                 u && *u ? u : "unknown");
        say(r, line);
        return true;
    }
    /* sessions started from now carry it too */
    setenv("NNDB_DRILL_NAME", name, 1);
    if (r->d) {
        cJSON_ReplaceItemInObject(r->state, "user", cJSON_CreateString(name));
        save_progress(r);
    }
    char line[512];
    snprintf(line, sizeof line, "Your evidence is signed %s.\n", name);
    say(r, line);
    return true;
}

static bool drill_magic(lang_session *s, void *user, const char *args) {
    runner *r = user;
    /* the cell holding this command belongs to the step it began in */
    if (r->magic_step < 0 && r->d) r->magic_step = r->step;
    char cmd[32] = "";
    const char *rest = args;
    int k = 0;
    while (*rest && !isspace((unsigned char)*rest) && k < 31) cmd[k++] = *rest++;
    cmd[k] = 0;
    while (isspace((unsigned char)*rest)) rest++;
    if (!*cmd) {
        if (!need_drill(r)) return true;
        show_step(r, r->step);
        return true;
    }
    if (!strcmp(cmd, "list")) {
        list_drills(s, NULL);
        return true;
    }
    if (!strcmp(cmd, "help")) {
        say(r, drill_help);
        return true;
    }
    if (!strcmp(cmd, "whoami")) return cmd_whoami(r, rest);
    if (!strcmp(cmd, "start")) return cmd_start(r, rest);
    if (!strcmp(cmd, "predict")) return cmd_predict(r, rest);
    if (!strcmp(cmd, "check")) return cmd_check(r);
    if (!strcmp(cmd, "hint")) return cmd_hint(r);
    if (!strcmp(cmd, "answer")) return cmd_answer(r, rest);
    if (!strcmp(cmd, "next")) return cmd_next(r);
    if (!strcmp(cmd, "status")) return cmd_status(r);
    if (!strcmp(cmd, "watch")) {
        if (!*rest)
            r->watch = !r->watch;
        else if (!strcmp(rest, "on") || !strcmp(rest, "off"))
            r->watch = !strcmp(rest, "on");
        else
            return usage(r, "%%drill watch takes on or off (nothing toggles it), not '%s'", rest);
        say(r, r->watch ? "Watching: the check runs after each statement you run at a do step "
                          "(%drill watch off stops it).\n"
                        : "Not watching.\n");
        return true;
    }
    if (!strcmp(cmd, "export")) return cmd_export(r, rest);
    if (!strcmp(cmd, "reset")) return cmd_reset(r, rest);
    return usage(r, "unknown %%drill command '%s': %%drill help lists them", cmd);
}

static void runner_free(void *user) {
    runner *r = user;
    for (int i = 0; i < MAX_RUNNERS; i++)
        if (g_runners[i] == r) g_runners[i] = NULL;
    drill_free(r->d);
    cJSON_Delete(r->state);
    free(r->said);
    free(r);
}

bool drill_install(lang_session *s) {
    runner *r = calloc(1, sizeof *r);
    if (!r) return false;
    r->s = s;
    for (int i = 0; i < MAX_RUNNERS; i++)
        if (!g_runners[i]) {
            g_runners[i] = r;
            break;
        }
    r->pending_run = -1;
    r->magic_step = -1;
    lang_session_set_observer(s, observe, r);
    /* The session frees the runner with it (runner_free). */
    if (lang_session_add_magic(s, "drill",
                               "%drill [list | start ID | predict TEXT | check | hint | answer "
                               "TEXT | next | watch | status | whoami NAME | export [md|json] "
                               "[PATH] | reset ID | help]",
                               "Guided drills: predict, do until the check holds, answer, "
                               "reflect; progress and evidence are "
                               "saved per user (docs/drills.md).",
                               drill_magic, r, runner_free))
        return true;
    runner_free(r);
    return false;
}

/* ---- nndb drill check ---- */

/* A lesson whose `requires:` names mpirun runs ranks with dist_run; where
 * mpirun is not on PATH its checks cannot run, and check says so. */
static bool needs_missing_mpirun(const drill *d) {
    if (!d->requires || !strstr(d->requires, "mpirun")) return false;
    return system("command -v mpirun >/dev/null 2>&1") != 0;
}

static int check_one(const char *path, bool verbose) {
    char *err = NULL;
    drill *d = drill_load(path, &err);
    if (!d) {
        fputs(err ? err : "invalid drill\n", stderr);
        free(err);
        return 1;
    }
    int bad = 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl < 3 || strcmp(base + bl - 3, ".md") || strncmp(base, d->id, bl - 3) ||
        strlen(d->id) != bl - 3) {
        fprintf(stderr, "%s:2: the id '%s' must be the file's name without .md\n", path, d->id);
        bad++;
    }
    if (!bad && needs_missing_mpirun(d)) {
        printf("skip %s: it requires mpirun, which is not on PATH (apt-get install openmpi-bin "
               "libopenmpi-dev); the file parses, its checks did not run\n",
               d->id);
        drill_free(d);
        return 2;
    }
    lang_frontend fe;
    memset(&fe, 0, sizeof fe);
    lang_session *s = lang_session_new(&fe);
    if (!s) {
        drill_free(d);
        return 1;
    }
    int checks = 0;
    bind_drill_dir(s, d);
    for (int i = 0; i < d->n_steps; i++) {
        const drill_step *st = &d->steps[i];
        if (st->kind == DRILL_DO) {
            char *e = NULL;
            if (st->setup && !lang_session_run(s, st->setup, path, &e)) {
                fprintf(stderr, "%s:%d: the setup raised %s\n", path, st->setup_line, e);
                bad++;
            }
            free(e);
            e = NULL;
            int before = lang_session_truth(s, st->check, path, &e);
            if (before == 1) {
                fprintf(stderr,
                        "%s:%d: the check is already true before the reference solution: it cannot "
                        "fail\n",
                        path, st->check_line);
                bad++;
            }
            free(e);
            e = NULL;
            if (!lang_session_run(s, st->reference, path, &e)) {
                fprintf(stderr, "%s:%d: the reference solution raised %s\n", path,
                        st->reference_line, e);
                bad++;
            }
            free(e);
            e = NULL;
            int after = lang_session_truth(s, st->check, path, &e);
            if (after != 1) {
                fprintf(stderr, "%s:%d: the check is %s after the reference solution%s%s\n", path,
                        st->check_line, after == 0 ? "false" : "an error", e ? ": " : "",
                        e ? e : "");
                bad++;
            }
            free(e);
            checks++;
        } else if (st->kind == DRILL_QUIZ) {
            if (st->n_choices) {
                char pick[4] = {(char)('a' + st->right_choice - 1), 0};
                if (!drill_quiz_accepts(st, pick)) {
                    fprintf(stderr, "%s:%d: the quiz does not accept its right choice\n", path,
                            st->line);
                    bad++;
                }
            }
            for (int k = 0; k < st->n_examples; k++)
                if (!drill_quiz_accepts(st, st->examples[k])) {
                    fprintf(stderr, "%s:%d: the quiz rejects its example '%s'\n", path, st->line,
                            st->examples[k]);
                    bad++;
                }
            for (int k = 0; k < st->n_wrongs; k++)
                if (drill_quiz_accepts(st, st->wrongs[k])) {
                    fprintf(stderr, "%s:%d: the quiz accepts the wrong answer '%s'\n", path,
                            st->line, st->wrongs[k]);
                    bad++;
                }
            checks++;
        }
    }
    /* the mutation pass: each plausible wrong fix, in a fresh session from
     * the step's start, must leave the check false */
    int wrongs = 0;
    for (int i = 0; i < d->n_steps && !bad; i++) {
        const drill_step *st = &d->steps[i];
        for (int k = 0; k < st->n_wrong_fixes; k++) {
            lang_session *m = lang_session_new(&fe);
            if (!m) break;
            bind_drill_dir(m, d);
            for (int j = 0; j < i; j++) {
                const drill_step *sj = &d->steps[j];
                if (sj->kind != DRILL_DO) continue;
                if (sj->setup) lang_session_run(m, sj->setup, path, NULL);
                lang_session_run(m, sj->reference, path, NULL);
            }
            if (st->setup) lang_session_run(m, st->setup, path, NULL);
            char *e = NULL;
            lang_session_run(m, st->wrong_fixes[k], path, &e);
            free(e);
            e = NULL;
            if (lang_session_truth(m, st->check, path, &e) == 1) {
                fprintf(stderr,
                        "%s:%d: the check holds after this wrong fix: it tests a symptom, not the "
                        "fix\n",
                        path, st->wrong_fix_lines[k]);
                bad++;
            }
            free(e);
            wrongs++;
            lang_session_free(m);
        }
    }
    if (verbose || !bad) {
        char extra[64] = "";
        if (wrongs) snprintf(extra, sizeof extra, "; %d wrong fixes rejected", wrongs);
        printf("%s %s: %d steps, %d checks%s%s\n", bad ? "FAIL" : "ok  ", d->id, d->n_steps, checks,
               bad ? "" : " (each check false before its reference, true after)", extra);
    }
    lang_session_free(s);
    drill_free(d);
    return bad ? 1 : 0;
}

int drill_check_files(int n, char **paths, bool verbose) {
    int failed = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        int r = check_one(paths[i], verbose);
        failed += r == 1;
        skipped += r == 2;
    }
    if (skipped)
        printf("%d passed, %d failed, %d skipped (mpirun missing)\n", n - failed - skipped, failed,
               skipped);
    else
        printf("%d passed, %d failed\n", n - failed, failed);
    return failed;
}

/* ---- nndb drill ---- */

static const char *const skeleton =
    "---\n"
    "id: %s\n"
    "title: A title that names the failure\n"
    "level: 1\n"
    "minutes: 15\n"
    "teaches: the one idea this drill is about\n"
    "requires:\n"
    "---\n"
    "\n"
    "## read: The mental model\n"
    "Two or three sentences a learner can hold in their head.\n"
    "\n"
    "## predict: What will happen?\n"
    "Describe the setup and ask for a prediction before anything runs.\n"
    "\n"
    "## do: Find it and fix it\n"
    "The task, in one paragraph.\n"
    "\n"
    "```setup\n"
    "x = tensor([1.0, 2.0])\n"
    "```\n"
    "\n"
    "```check\n"
    "x.sum().item() == 0.0\n"
    "```\n"
    "\n"
    "```reference\n"
    "x = x - x\n"
    "```\n"
    "\n"
    "hint: a first, gentle hint\n"
    "hint: a second, more direct one\n"
    "\n"
    "## quiz: Which cause?\n"
    "A question.\n"
    "choice: a wrong answer\n"
    "choice*: the right answer\n"
    "\n"
    "## reflect: Explain it back\n"
    "Explain what happened without jargon, to someone who has not studied the track.\n";

/* ---- nndb drill notebook ---- */

static cJSON *nb_cell(const char *type, const char *source, int *counter) {
    cJSON *c = cJSON_CreateObject();
    char id[32];
    snprintf(id, sizeof id, "cell-%04d", ++*counter);
    cJSON_AddStringToObject(c, "cell_type", type);
    cJSON_AddStringToObject(c, "id", id);
    cJSON_AddItemToObject(c, "metadata", cJSON_CreateObject());
    if (!strcmp(type, "code")) {
        cJSON_AddNullToObject(c, "execution_count");
        cJSON_AddArrayToObject(c, "outputs");
    }
    /* the source as a list of lines, each but the last with its newline */
    cJSON *src = cJSON_AddArrayToObject(c, "source");
    const char *p = source;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        char *line = strndup(p, n);
        if (!line) break;
        if (nl && !nl[1]) line[n - 1] = 0; /* no newline after the last line */
        cJSON_AddItemToArray(src, cJSON_CreateString(line));
        free(line);
        p += n;
    }
    return c;
}

/* A notebook for drill [d]: a Markdown cell per step, a code cell that
 * starts the drill (the runner runs each do step's setup as the learner
 * reaches it), and after each step a work cell with the command it needs. */
static char *drill_notebook(const drill *d) {
    cJSON *nb = cJSON_CreateObject();
    cJSON *cells = cJSON_AddArrayToObject(nb, "cells");
    int k = 0;
    char buf[8192];
    snprintf(buf, sizeof buf,
             "# %s\n\n*%s* (about %d minutes). Run the cells in order; `%%drill` shows the "
             "current step again, `%%drill hint` gives a hint, `%%drill export md` writes your "
             "evidence.",
             d->title, d->teaches, d->minutes);
    cJSON_AddItemToArray(cells, nb_cell("markdown", buf, &k));
    snprintf(buf, sizeof buf, "%%drill start %s", d->id);
    cJSON_AddItemToArray(cells, nb_cell("code", buf, &k));
    for (int i = 0; i < d->n_steps; i++) {
        const drill_step *st = &d->steps[i];
        size_t need = strlen(st->text ? st->text : "") + strlen(st->title) + 1024;
        for (int c = 0; c < st->n_choices; c++) need += strlen(st->choices[c]) + 16;
        char *md = malloc(need);
        if (!md) break;
        int n = snprintf(md, need, "## %d. %s: %s\n\n%s", i + 1, drill_kind_name(st->kind),
                         st->title, st->text ? st->text : "");
        for (int c = 0; c < st->n_choices; c++)
            n += snprintf(md + n, need - (size_t)n, "%s- **%c)** %s", c ? "\n" : "\n\n", 'a' + c,
                          st->choices[c]);
        cJSON_AddItemToArray(cells, nb_cell("markdown", md, &k));
        free(md);
        const char *work = st->kind == DRILL_PREDICT   ? "%drill predict "
                           : st->kind == DRILL_DO      ? "# your work here, then:\n%drill check"
                           : st->kind == DRILL_QUIZ    ? "%drill answer "
                           : st->kind == DRILL_REFLECT ? "%drill answer "
                                                       : "%drill next";
        cJSON_AddItemToArray(cells, nb_cell("code", work, &k));
    }
    cJSON *md = cJSON_AddObjectToObject(nb, "metadata");
    cJSON *ks = cJSON_AddObjectToObject(md, "kernelspec");
    cJSON_AddStringToObject(ks, "display_name", "nndb");
    cJSON_AddStringToObject(ks, "language", "nndb");
    cJSON_AddStringToObject(ks, "name", "nndb");
    cJSON *li = cJSON_AddObjectToObject(md, "language_info");
    cJSON_AddStringToObject(li, "codemirror_mode", "python");
    cJSON_AddStringToObject(li, "file_extension", ".nn");
    cJSON_AddStringToObject(li, "mimetype", "text/x-nndb");
    cJSON_AddStringToObject(li, "name", "nndb");
    cJSON_AddStringToObject(li, "pygments_lexer", "python");
    cJSON_AddNumberToObject(nb, "nbformat", 4);
    cJSON_AddNumberToObject(nb, "nbformat_minor", 5);
    char *text = cJSON_Print(nb);
    cJSON_Delete(nb);
    return text;
}

/* ---- nndb drill report ---- */

typedef struct learner_row {
    char user[64], drill[64], status[16];
    int hints, attempts;
    double minutes;
    char prediction[256];
    char failed[256];
    int checks_passed, do_steps;
    int points, points_of; /* earned (the lesson's points: when it is done), and possible */
} learner_row;

/* The points a lesson gives (its front matter's points:), or 0. */
static int lesson_points(const char *id) {
    char *path = drill_find(id);
    drill *d = path ? drill_load(path, NULL) : NULL;
    int pts = d ? d->points : 0;
    drill_free(d);
    free(path);
    return pts;
}

static double iso_seconds(const char *s) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (!s || !strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm)) return 0;
    return (double)timegm(&tm);
}

static void one_line(char *dst, size_t cap, const char *src) {
    size_t k = 0;
    for (const char *p = src ? src : ""; *p && k + 1 < cap; p++)
        dst[k++] = *p == '\n' || *p == '|' || *p == ',' ? ' ' : *p;
    while (k && dst[k - 1] == ' ') k--;
    dst[k] = 0;
}

static bool read_row(const char *path, learner_row *row) {
    char *text = read_all(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!j || !jstr(j, "drill") || !cJSON_IsArray(cJSON_GetObjectItem(j, "steps"))) {
        cJSON_Delete(j);
        return false;
    }
    memset(row, 0, sizeof *row);
    snprintf(row->user, sizeof row->user, "%s", jstr(j, "user") ? jstr(j, "user") : "?");
    snprintf(row->drill, sizeof row->drill, "%s", jstr(j, "drill"));
    snprintf(row->status, sizeof row->status, "%s", jstr(j, "status") ? jstr(j, "status") : "?");
    const char *end = jstr(j, "finished") ? jstr(j, "finished") : jstr(j, "updated");
    double t0 = iso_seconds(jstr(j, "started")), t1 = iso_seconds(end);
    row->minutes = t1 > t0 ? (t1 - t0) / 60.0 : 0;
    cJSON *st;
    cJSON_ArrayForEach(st, cJSON_GetObjectItem(j, "steps")) {
        cJSON *h = cJSON_GetObjectItem(st, "hints_used"), *a = cJSON_GetObjectItem(st, "attempts");
        row->hints += cJSON_IsNumber(h) ? h->valueint : 0;
        row->attempts += cJSON_IsNumber(a) ? a->valueint : 0;
        cJSON *p = cJSON_GetObjectItem(st, "prediction");
        if (p && !row->prediction[0])
            one_line(row->prediction, sizeof row->prediction, jstr(p, "text"));
        cJSON *fa = cJSON_GetObjectItem(st, "failed_attempt");
        if (fa && !row->failed[0]) one_line(row->failed, sizeof row->failed, jstr(fa, "code"));
        const char *kind = jstr(st, "kind");
        if (kind && !strcmp(kind, "do")) {
            row->do_steps++;
            row->checks_passed += cJSON_IsTrue(cJSON_GetObjectItem(st, "done"));
        }
    }
    cJSON_Delete(j);
    row->points_of = lesson_points(row->drill);
    row->points = !strcmp(row->status, "done") ? row->points_of : 0;
    return true;
}

static int cmp_rows(const void *a, const void *b) {
    const learner_row *x = a, *y = b;
    int c = strcmp(x->drill, y->drill);
    return c ? c : strcmp(x->user, y->user);
}

/* Totals per learner and per lesson (points where lessons give them). */
static void print_totals(const learner_row *rows, int nrows) {
    bool any_points = false;
    for (int i = 0; i < nrows; i++) any_points |= rows[i].points_of > 0;
    printf("\n## Totals per learner\n\n| learner | lessons done | of | checks held | hints | "
           "minutes%s |\n|---|---|---|---|---|---|%s\n",
           any_points ? " | points" : "", any_points ? "---|" : "");
    for (int i = 0; i < nrows; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++) seen |= !strcmp(rows[j].user, rows[i].user);
        if (seen) continue;
        int done = 0, of = 0, held = 0, hints = 0, pts = 0, pts_of = 0;
        double minutes = 0;
        for (int j = i; j < nrows; j++) {
            if (strcmp(rows[j].user, rows[i].user)) continue;
            of++;
            done += !strcmp(rows[j].status, "done");
            held += rows[j].checks_passed;
            hints += rows[j].hints;
            minutes += rows[j].minutes;
            pts += rows[j].points;
            pts_of += rows[j].points_of;
        }
        printf("| %s | %d | %d | %d | %d | %.1f |", rows[i].user, done, of, held, hints, minutes);
        if (any_points) printf(" %d of %d |", pts, pts_of);
        printf("\n");
    }
    printf("\n## Totals per lesson\n\n| drill | learners | done | mean hints | mean minutes%s "
           "|\n|---|---|---|---|---|%s\n",
           any_points ? " | points each" : "", any_points ? "---|" : "");
    for (int i = 0; i < nrows; i++) {
        if (i && !strcmp(rows[i - 1].drill, rows[i].drill)) continue; /* sorted by drill */
        int n = 0, done = 0, hints = 0;
        double minutes = 0;
        for (int j = i; j < nrows && !strcmp(rows[j].drill, rows[i].drill); j++) {
            n++;
            done += !strcmp(rows[j].status, "done");
            hints += rows[j].hints;
            minutes += rows[j].minutes;
        }
        printf("| %s | %d | %d | %.1f | %.1f |", rows[i].drill, n, done, (double)hints / n,
               minutes / n);
        if (any_points) printf(" %d |", rows[i].points_of);
        printf("\n");
    }
}

/* `nndb drill report [--csv] DIR...`: the exported JSON of a class. */
static int drill_report(int n, char **dirs, bool csv) {
    learner_row *rows = NULL;
    int nrows = 0;
    for (int i = 0; i < n; i++) {
        struct dirent **names = NULL;
        int k = scandir(dirs[i], &names, NULL, alphasort);
        if (k < 0) {
            fprintf(stderr, "nndb: cannot read %s: %s\n", dirs[i], strerror(errno));
            continue;
        }
        for (int e = 0; e < k; e++) {
            const char *nm = names[e]->d_name;
            size_t l = strlen(nm);
            if (l > 5 && !strcmp(nm + l - 5, ".json")) {
                char path[8300];
                snprintf(path, sizeof path, "%s/%s", dirs[i], nm);
                learner_row row;
                if (read_row(path, &row)) {
                    learner_row *p = realloc(rows, sizeof *p * (size_t)(nrows + 1));
                    if (p) {
                        rows = p;
                        rows[nrows++] = row;
                    }
                }
            }
            free(names[e]);
        }
        free(names);
    }
    qsort(rows, (size_t)nrows, sizeof *rows, cmp_rows);
    if (csv) {
        printf(
            "drill,learner,status,minutes,hints,checks,points,prediction,first failed attempt\n");
        for (int i = 0; i < nrows; i++)
            printf("%s,%s,%s,%.1f,%d,%d,%d,%s,%s\n", rows[i].drill, rows[i].user, rows[i].status,
                   rows[i].minutes, rows[i].hints, rows[i].attempts, rows[i].points,
                   rows[i].prediction, rows[i].failed);
    } else {
        printf("# Drill report: %d record%s\n\n", nrows, nrows == 1 ? "" : "s");
        printf(
            "| drill | learner | status | minutes | hints | checks |\n|---|---|---|---|---|---|\n");
        for (int i = 0; i < nrows; i++)
            printf("| %s | %s | %s | %.1f | %d | %d |\n", rows[i].drill, rows[i].user,
                   rows[i].status, rows[i].minutes, rows[i].hints, rows[i].attempts);
        printf("\n## Predictions against outcomes\n\n| drill | learner | prediction | outcome |\n"
               "|---|---|---|---|\n");
        for (int i = 0; i < nrows; i++)
            if (rows[i].prediction[0])
                printf("| %s | %s | %s | %d of %d checks held%s |\n", rows[i].drill, rows[i].user,
                       rows[i].prediction, rows[i].checks_passed, rows[i].do_steps,
                       rows[i].failed[0] ? " after a failed attempt" : "");
        print_totals(rows, nrows);
        /* the most common first failed attempts, per drill */
        printf(
            "\n## Most common failed attempts\n\n| drill | attempt | learners |\n|---|---|---|\n");
        for (int i = 0; i < nrows; i++) {
            if (!rows[i].failed[0]) continue;
            bool seen = false;
            for (int j = 0; j < i; j++)
                seen |= !strcmp(rows[j].drill, rows[i].drill) &&
                        !strcmp(rows[j].failed, rows[i].failed);
            if (seen) continue;
            int count = 0;
            for (int j = i; j < nrows; j++)
                count += !strcmp(rows[j].drill, rows[i].drill) &&
                         !strcmp(rows[j].failed, rows[i].failed);
            printf("| %s | `%s` | %d |\n", rows[i].drill, rows[i].failed, count);
        }
    }
    free(rows);
    return nrows ? 0 : 1;
}

/* Whether DIR holds any evidence file (the report says so when none does). */
static bool has_evidence(const char *dir) {
    struct dirent **names = NULL;
    int k = scandir(dir, &names, NULL, alphasort);
    bool any = false;
    for (int e = 0; e < k; e++) {
        const char *nm = names[e]->d_name;
        size_t l = strlen(nm);
        if (l > 5 && !strcmp(nm + l - 5, ".json")) {
            char path[8300];
            learner_row row;
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            any |= read_row(path, &row);
        }
        free(names[e]);
    }
    free(names);
    return any;
}

int drill_cli(int argc, char **argv, int (*start_repl)(const char *first_cell)) {
    const char *sub = argc > 2 ? argv[2] : "list";
    if (!strcmp(sub, "list")) {
        list_drills(NULL, stdout);
        return 0;
    }
    if (!strcmp(sub, "check")) {
        bool verbose = false;
        int first = 3;
        if (argc > 3 && !strcmp(argv[3], "-v")) verbose = true, first = 4;
        if (argc <= first) {
            fprintf(stderr, "usage: nndb drill check [-v] FILE.md|DIR...\n");
            return 2;
        }
        /* a directory stands for the lessons in it */
        char **files = NULL;
        int n = 0;
        for (int i = first; i < argc; i++) {
            struct stat sb;
            struct dirent **names = NULL;
            int k = !stat(argv[i], &sb) && S_ISDIR(sb.st_mode)
                        ? scandir(argv[i], &names, NULL, alphasort)
                        : -1;
            if (k < 0) {
                char **p = realloc(files, sizeof *files * (size_t)(n + 1));
                if (p) files = p, files[n++] = strdup(argv[i]);
                continue;
            }
            int found = 0;
            for (int e = 0; e < k; e++) {
                const char *nm = names[e]->d_name;
                size_t l = strlen(nm);
                if (l > 3 && !strcmp(nm + l - 3, ".md")) {
                    char path[8300];
                    snprintf(path, sizeof path, "%s/%s", argv[i], nm);
                    char **p = realloc(files, sizeof *files * (size_t)(n + 1));
                    if (p) files = p, files[n++] = strdup(path), found++;
                }
                free(names[e]);
            }
            free(names);
            if (!found) fprintf(stderr, "nndb: no lessons (*.md) in %s\n", argv[i]);
        }
        int failed = n ? drill_check_files(n, files, verbose) : 1;
        for (int i = 0; i < n; i++) free(files[i]);
        free(files);
        return failed ? 1 : 0;
    }
    if (!strcmp(sub, "new") && argc == 4) {
        const char *id = argv[3];
        for (const char *c = id; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') {
                fprintf(stderr, "nndb: a drill id holds letters, digits, - and _\n");
                return 2;
            }
        const char *dir = getenv("NNDB_DRILLS_PATH");
        char path[4200];
        char d0[4096] = ".";
        if (dir && *dir) {
            snprintf(d0, sizeof d0, "%s", dir);
            char *colon = strchr(d0, ':');
            if (colon) *colon = 0;
            mkdirs(d0);
        }
        snprintf(path, sizeof path, "%s/%s.md", d0, id);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0) {
            fprintf(stderr, "nndb: cannot create %s: %s\n", path, strerror(errno));
            return 1;
        }
        FILE *f = fdopen(fd, "w");
        fprintf(f, skeleton, id);
        fclose(f);
        printf("Wrote %s; `nndb drill check %s` validates it.\n", path, path);
        return 0;
    }
    if (!strcmp(sub, "start") && argc == 6 && !strcmp(argv[4], "--name")) {
        setenv("NNDB_DRILL_NAME", argv[5], 1); /* the evidence's learner */
        argc = 4;
    }
    if (!strcmp(sub, "start") && argc == 4) {
        char *p = drill_find(argv[3]);
        if (!p) {
            fprintf(stderr, "nndb: no drill '%s' (nndb drill list)\n", argv[3]);
            return 1;
        }
        free(p);
        char cell[256];
        snprintf(cell, sizeof cell, "%%drill start %s", argv[3]);
        return start_repl ? start_repl(cell) : 1;
    }
    if (!strcmp(sub, "report") && argc >= 4) {
        bool csv = !strcmp(argv[3], "--csv");
        if (csv && argc < 5) {
            fprintf(stderr, "usage: nndb drill report [--csv] DIR...\n");
            return 2;
        }
        int first = csv ? 4 : 3, found = 0;
        for (int i = first; i < argc; i++) {
            struct stat sb;
            if (stat(argv[i], &sb) || !S_ISDIR(sb.st_mode))
                fprintf(stderr, "nndb: %s is not a directory\n", argv[i]);
            else if (!has_evidence(argv[i]))
                fprintf(stderr, "nndb: no evidence found in %s (%%drill export json writes it)\n",
                        argv[i]);
            else
                found++;
        }
        if (!found) return 1;
        return drill_report(argc - first, argv + first, csv);
    }
    if (!strcmp(sub, "notebook") && (argc == 4 || (argc == 6 && !strcmp(argv[4], "-o")))) {
        char *p = strchr(argv[3], '/') ? strdup(argv[3]) : drill_find(argv[3]);
        char *err = NULL;
        drill *d = p ? drill_load(p, &err) : NULL;
        free(p);
        if (!d) {
            fprintf(stderr, "nndb: %s", err ? err : "no such drill (nndb drill list)\n");
            free(err);
            return 1;
        }
        char *text = drill_notebook(d);
        char out[4200];
        snprintf(out, sizeof out, "%s", argc == 6 ? argv[5] : "");
        if (!*out) snprintf(out, sizeof out, "%s.ipynb", d->id);
        FILE *f = fopen(out, "w");
        bool ok = f && text && fputs(text, f) >= 0 && fputs("\n", f) >= 0;
        if (f && fclose(f)) ok = false;
        if (!ok)
            fprintf(stderr, "nndb: cannot write %s: %s\n", out, strerror(errno));
        else
            printf("Wrote %s (run it on the nndb kernel).\n", out);
        free(text);
        drill_free(d);
        return ok ? 0 : 1;
    }
    fprintf(stderr,
            "usage: nndb drill list\n"
            "       nndb drill notebook ID [-o FILE.ipynb]\n"
            "       nndb drill report [--csv] DIR...   a class's exported evidence\n"
            "       nndb drill start ID [--name NAME]  open the REPL with the drill loaded\n"
            "       nndb drill check [-v] FILE.md|DIR...  validate lessons (a DIR: its *.md)\n"
            "       nndb drill new ID         write a skeleton (into the first "
            "NNDB_DRILLS_PATH dir, or .)\n");
    return 2;
}

bool drill_prompt(lang_session *s, char *buf, size_t cap) {
    if (cap) *buf = 0;
    for (int i = 0; i < MAX_RUNNERS; i++) {
        runner *r = g_runners[i];
        if (!r || r->s != s || !r->d || !r->state) continue;
        const char *st = jstr(r->state, "status");
        if (st && !strcmp(st, "done")) return false;
        snprintf(buf, cap, "[%s %d/%d]", r->d->id, r->step + 1, r->d->n_steps);
        return true;
    }
    return false;
}
