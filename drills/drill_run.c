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
} runner;

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
static bool data_dir(char *buf, size_t cap) {
    const char *x = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    if (x && *x)
        snprintf(buf, cap, "%s/nndb/drills", x);
    else if (home && *home)
        snprintf(buf, cap, "%s/.local/share/nndb/drills", home);
    else
        return false;
    return mkdirs(buf) == 0;
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
    if (!data_dir(dir, sizeof dir)) return NULL;
    snprintf(path, sizeof path, "%s/%s.json", dir, id);
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
    const char *user = getenv("USER");
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
            ? "Work in this session; %drill check when you think it holds (%drill hint for a hint)"
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
        bool ok = lang_session_run(r->s, st->setup, r->d->path, &err);
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

static void observe(void *user, const char *code, const char *filename, const lang_result *res,
                    const char *output) {
    runner *r = user;
    if (!r->d || !r->recording) return;
    cJSON *e = add_evidence(r, "input");
    cJSON_AddStringToObject(e, "code", code);
    cJSON_AddStringToObject(e, "output", output ? output : "");
    if (res->ok && res->has_value) {
        const char *v = lang_mime_get(&res->value, "text/plain");
        if (v) {
            char cut[2048];
            snprintf(cut, sizeof cut, "%s", v);
            cJSON_AddStringToObject(e, "value", cut);
        }
    }
    if (!res->ok) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s: %s", res->error.ename ? res->error.ename : "Error",
                 res->error.evalue ? res->error.evalue : "");
        cJSON_AddStringToObject(e, "error", buf);
    }
    save_progress(r);
}

/* The last input the learner ran, for the failed attempt. */
static cJSON *last_input(runner *r) {
    cJSON *ev = cJSON_GetObjectItem(r->state, "evidence");
    for (int i = cJSON_GetArraySize(ev) - 1; i >= 0; i--) {
        cJSON *e = cJSON_GetArrayItem(ev, i);
        cJSON *k = cJSON_GetObjectItem(e, "kind");
        cJSON *c = cJSON_GetObjectItem(e, "code");
        if (cJSON_IsString(k) && !strcmp(k->valuestring, "input") && cJSON_IsString(c) &&
            strncmp(c->valuestring, "%drill", 6))
            return e;
    }
    return NULL;
}

/* ---- commands ---- */

static bool need_drill(runner *r) {
    if (r->d) return true;
    return lang_session_fail(
        r->s, LANG_ERR_VALUE, "DrillError",
        "no drill is running: %%drill list shows them, %%drill start ID begins one");
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
        if (fa && jstr(fa, "code"))
            lang_buf_printf(&b, "; first failed attempt: %.120s", jstr(fa, "code"));
        lang_buf_puts(&b, "\n");
    }
    lang_buf_puts(&b, "%drill export md writes all of it (prediction, failed attempt, passing run, "
                      "answers).\n");
    say(r, b.data);
    lang_buf_free(&b);
    return true;
}

static bool cmd_start(runner *r, const char *id) {
    if (!*id)
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "%%drill start needs a drill id (%%drill list)");
    char *path = strchr(id, '/') ? strdup(id) : drill_find(id);
    if (!path)
        return lang_session_fail(
            r->s, LANG_ERR_VALUE, "DrillError",
            "no drill '%s' (%%drill list shows them; NNDB_DRILLS_PATH adds yours)", id);
    char *err = NULL;
    drill *d = drill_load(path, &err);
    free(path);
    if (!d) {
        bool f = lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError", "%s",
                                   err ? err : "cannot read the drill");
        free(err);
        return f;
    }
    drill_free(r->d);
    cJSON_Delete(r->state);
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
        if (st->kind == DRILL_DO && st->setup) lang_session_run(r->s, st->setup, d->path, NULL);
        if (st->kind == DRILL_DO && step_done(r, i) && st->reference)
            lang_session_run(r->s, st->reference, d->path, NULL);
    }
    return enter_step(r, step);
}

static bool cmd_predict(runner *r, const char *text) {
    if (!need_drill(r)) return false;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_PREDICT)
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "step %d is a %s step, not a prediction", r->step + 1,
                                 drill_kind_name(st->kind));
    char *asked = NULL;
    if (!*text) asked = lang_session_readline(r->s, "Your prediction: ");
    const char *t = *text ? text : asked;
    if (!t || !*t) {
        free(asked);
        return lang_session_fail(
            r->s, LANG_ERR_VALUE, "DrillError",
            "write the prediction after the command: %%drill predict the loss stays near 2.3");
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
    if (!need_drill(r)) return false;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_DO)
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "step %d is a %s step: nothing to check", r->step + 1,
                                 drill_kind_name(st->kind));
    char *err = NULL;
    int t = lang_session_truth(r->s, st->check, r->d->path, &err);
    cJSON *ss = step_state(r, r->step);
    cJSON *att = cJSON_GetObjectItem(ss, "attempts");
    int n = att ? att->valueint + 1 : 1;
    cJSON_DeleteItemFromObject(ss, "attempts");
    cJSON_AddNumberToObject(ss, "attempts", n);
    cJSON *e = add_evidence(r, t == 1 ? "check passed" : "check failed");
    cJSON_AddStringToObject(e, "check", st->check);
    if (err) cJSON_AddStringToObject(e, "error", err);
    cJSON *li = last_input(r);
    if (t != 1 && !cJSON_GetObjectItem(ss, "failed_attempt")) {
        cJSON *fa = li ? cJSON_Duplicate(li, true) : cJSON_CreateObject();
        cJSON_AddStringToObject(fa, "check", st->check);
        if (err) cJSON_AddStringToObject(fa, "check_error", err);
        cJSON_AddItemToObject(ss, "failed_attempt", fa);
    }
    if (t == 1) {
        cJSON *pass = li ? cJSON_Duplicate(li, true) : cJSON_CreateObject();
        cJSON_DeleteItemFromObject(ss, "passed");
        cJSON_AddItemToObject(ss, "passed", pass);
        set_done(r, r->step);
        say(r, "\xe2\x9c\x93 The check holds.\n");
        free(err);
        return advance(r);
    }
    char line[1200];
    if (err)
        snprintf(line, sizeof line, "Not yet: the check raised %s\n", err);
    else
        snprintf(line, sizeof line,
                 "Not yet: the check (%s) is false. %%drill hint gives a hint.\n", st->check);
    say(r, line);
    free(err);
    save_progress(r);
    return true;
}

static bool cmd_hint(runner *r) {
    if (!need_drill(r)) return false;
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
    if (!need_drill(r)) return false;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_QUIZ && st->kind != DRILL_REFLECT)
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "step %d is a %s step: no answer is asked", r->step + 1,
                                 drill_kind_name(st->kind));
    if (!*text)
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "write the answer after the command");
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
        say(r, "Not quite. Try again, or %drill hint.\n");
        save_progress(r);
        return true;
    }
    set_done(r, r->step);
    say(r, st->kind == DRILL_QUIZ ? "\xe2\x9c\x93 Right.\n" : "Recorded.\n");
    return advance(r);
}

static bool cmd_next(runner *r) {
    if (!need_drill(r)) return false;
    const drill_step *st = &r->d->steps[r->step];
    if (st->kind != DRILL_READ && !step_done(r, r->step))
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "finish step %d first (%s): %s", r->step + 1,
                                 drill_kind_name(st->kind),
                                 st->kind == DRILL_PREDICT ? "%drill predict TEXT"
                                 : st->kind == DRILL_DO ? "make the check hold, then %drill check"
                                                        : "%drill answer TEXT");
    if (st->kind == DRILL_READ) set_done(r, r->step);
    return advance(r);
}

static bool cmd_status(runner *r) {
    if (!need_drill(r)) return false;
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

static void md_text(char **out, size_t *n, size_t *cap, const char *s) {
    size_t l = strlen(s);
    if (*n + l + 1 > *cap) {
        size_t c = *cap ? *cap * 2 : 4096;
        while (c < *n + l + 1) c *= 2;
        char *p = realloc(*out, c);
        if (!p) return;
        *out = p;
        *cap = c;
    }
    memcpy(*out + *n, s, l + 1);
    *n += l;
}

static const char *jstr(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void md_block(char **out, size_t *n, size_t *cap, const char *label, const cJSON *e) {
    if (!e) return;
    char line[256];
    snprintf(line, sizeof line, "**%s**%s%s\n\n", label, jstr(e, "time") ? " at " : "",
             jstr(e, "time") ? jstr(e, "time") : "");
    md_text(out, n, cap, line);
    if (jstr(e, "code")) {
        md_text(out, n, cap, "```python\n");
        md_text(out, n, cap, jstr(e, "code"));
        md_text(out, n, cap, "\n```\n\n");
    }
    const char *o = jstr(e, "output");
    if (o && *o) {
        md_text(out, n, cap, "Output:\n\n```\n");
        md_text(out, n, cap, o);
        md_text(out, n, cap, "\n```\n\n");
    }
    if (jstr(e, "value")) {
        md_text(out, n, cap, "Value: `");
        md_text(out, n, cap, jstr(e, "value"));
        md_text(out, n, cap, "`\n\n");
    }
    if (jstr(e, "error")) {
        md_text(out, n, cap, "Error: `");
        md_text(out, n, cap, jstr(e, "error"));
        md_text(out, n, cap, "`\n\n");
    }
    if (jstr(e, "check")) {
        md_text(out, n, cap, "Check: `");
        md_text(out, n, cap, jstr(e, "check"));
        md_text(out, n, cap, "`\n\n");
    }
}

static char *export_md(runner *r) {
    char *out = NULL;
    size_t n = 0, cap = 0;
    char line[1024];
    snprintf(line, sizeof line, "# Drill %s: %s\n\nLearner: %s. Started %s; status: %s.\n\n",
             r->d->id, r->d->title, jstr(r->state, "user"), jstr(r->state, "started"),
             jstr(r->state, "status"));
    md_text(&out, &n, &cap, line);
    for (int i = 0; i < r->d->n_steps; i++) {
        const drill_step *st = &r->d->steps[i];
        cJSON *ss = step_state(r, i);
        cJSON *hu = cJSON_GetObjectItem(ss, "hints_used");
        snprintf(line, sizeof line, "## %d. %s: %s%s\n\n", i + 1, drill_kind_name(st->kind),
                 st->title, step_done(r, i) ? "" : " (not done)");
        md_text(&out, &n, &cap, line);
        cJSON *p = cJSON_GetObjectItem(ss, "prediction");
        if (p) {
            md_text(&out, &n, &cap, "Prediction: ");
            md_text(&out, &n, &cap, jstr(p, "text") ? jstr(p, "text") : "");
            md_text(&out, &n, &cap, "\n\n");
        }
        md_block(&out, &n, &cap, "Failed attempt", cJSON_GetObjectItem(ss, "failed_attempt"));
        md_block(&out, &n, &cap, "Passing run", cJSON_GetObjectItem(ss, "passed"));
        cJSON *answers = cJSON_GetObjectItem(ss, "answers");
        cJSON *a;
        cJSON_ArrayForEach(a, answers) {
            cJSON *c = cJSON_GetObjectItem(a, "correct");
            snprintf(line, sizeof line,
                     "Answer%s: ", c ? (cJSON_IsTrue(c) ? " (right)" : " (not accepted)") : "");
            md_text(&out, &n, &cap, line);
            md_text(&out, &n, &cap, jstr(a, "text") ? jstr(a, "text") : "");
            md_text(&out, &n, &cap, "\n\n");
        }
        if (hu && hu->valueint) {
            snprintf(line, sizeof line, "Hints used: %d\n\n", hu->valueint);
            md_text(&out, &n, &cap, line);
        }
    }
    return out;
}

static bool cmd_export(runner *r, const char *args) {
    if (!need_drill(r)) return false;
    char fmt[16] = "md", path[4096] = "";
    sscanf(args, "%15s %4095s", fmt, path);
    bool json = !strcmp(fmt, "json");
    if (!json && strcmp(fmt, "md"))
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "%%drill export takes md or json, then a path");
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
    if (!*id)
        return lang_session_fail(r->s, LANG_ERR_VALUE, "DrillError",
                                 "%%drill reset needs a drill id");
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

static bool drill_magic(lang_session *s, void *user, const char *args) {
    runner *r = user;
    char cmd[32] = "";
    const char *rest = args;
    int k = 0;
    while (*rest && !isspace((unsigned char)*rest) && k < 31) cmd[k++] = *rest++;
    cmd[k] = 0;
    while (isspace((unsigned char)*rest)) rest++;
    if (!*cmd) {
        if (!need_drill(r)) return false;
        show_step(r, r->step);
        return true;
    }
    if (!strcmp(cmd, "list")) {
        list_drills(s, NULL);
        return true;
    }
    if (!strcmp(cmd, "start")) return cmd_start(r, rest);
    if (!strcmp(cmd, "predict")) return cmd_predict(r, rest);
    if (!strcmp(cmd, "check")) return cmd_check(r);
    if (!strcmp(cmd, "hint")) return cmd_hint(r);
    if (!strcmp(cmd, "answer")) return cmd_answer(r, rest);
    if (!strcmp(cmd, "next")) return cmd_next(r);
    if (!strcmp(cmd, "status")) return cmd_status(r);
    if (!strcmp(cmd, "export")) return cmd_export(r, rest);
    if (!strcmp(cmd, "reset")) return cmd_reset(r, rest);
    return lang_session_fail(
        s, LANG_ERR_VALUE, "DrillError",
        "unknown %%drill command '%s': list, start ID, predict TEXT, check, hint, "
        "answer TEXT, next, status, export [md|json] [PATH], reset ID",
        cmd);
}

static void runner_free(void *user) {
    runner *r = user;
    drill_free(r->d);
    cJSON_Delete(r->state);
    free(r);
}

bool drill_install(lang_session *s) {
    runner *r = calloc(1, sizeof *r);
    if (!r) return false;
    r->s = s;
    lang_session_set_observer(s, observe, r);
    /* The session frees the runner with it (runner_free). */
    if (lang_session_add_magic(s, "drill",
                               "%drill [list | start ID | predict TEXT | check | hint | answer "
                               "TEXT | next | status | export [md|json] [PATH] | reset ID]",
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
    if (verbose || !bad)
        printf("%s %s: %d steps, %d checks%s\n", bad ? "FAIL" : "ok  ", d->id, d->n_steps, checks,
               bad ? "" : " (each check false before its reference, true after)");
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
} learner_row;

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
    return true;
}

static int cmp_rows(const void *a, const void *b) {
    const learner_row *x = a, *y = b;
    int c = strcmp(x->drill, y->drill);
    return c ? c : strcmp(x->user, y->user);
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
        printf("drill,learner,status,minutes,hints,checks,prediction,first failed attempt\n");
        for (int i = 0; i < nrows; i++)
            printf("%s,%s,%s,%.1f,%d,%d,%s,%s\n", rows[i].drill, rows[i].user, rows[i].status,
                   rows[i].minutes, rows[i].hints, rows[i].attempts, rows[i].prediction,
                   rows[i].failed);
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
            fprintf(stderr, "usage: nndb drill check [-v] FILE.md...\n");
            return 2;
        }
        return drill_check_files(argc - first, argv + first, verbose) ? 1 : 0;
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
        return drill_report(argc - (csv ? 4 : 3), argv + (csv ? 4 : 3), csv);
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
    fprintf(stderr, "usage: nndb drill list\n"
                    "       nndb drill notebook ID [-o FILE.ipynb]\n"
                    "       nndb drill report [--csv] DIR...   a class's exported evidence\n"
                    "       nndb drill start ID       open the REPL with the drill loaded\n"
                    "       nndb drill check [-v] FILE.md...\n"
                    "       nndb drill new ID         write a skeleton (into the first "
                    "NNDB_DRILLS_PATH dir, or .)\n");
    return 2;
}
