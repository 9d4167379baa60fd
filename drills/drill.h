/* drills: guided lessons on training and debugging, as Markdown files, and
 * the runner that takes a learner through them in the REPL and in Jupyter
 * (docs/drills.md is the authoring guide).
 *
 * drill_parse.c reads a drill file into a drill (all strings owned by it;
 * drill_free frees them). drill_run.c is the runner: the %drill magic on a
 * language session, progress and evidence saved per user (atomic writes),
 * exports. drill_cli.c is `nndb drill ...`. This layer uses lang's public
 * API (lang.h) and never a front end.
 */
#ifndef DRILL_H
#define DRILL_H

#include <stdbool.h>
#include <stddef.h>

#include "lang.h"

typedef enum drill_kind {
    DRILL_READ,
    DRILL_PREDICT,
    DRILL_DO,
    DRILL_QUIZ,
    DRILL_REFLECT
} drill_kind;

#define DRILL_MAX_HINTS   8
#define DRILL_MAX_CHOICES 8
#define DRILL_MAX_SAMPLES 4

typedef struct drill_step {
    drill_kind kind;
    char *title;
    char *text; /* Markdown body, without the code blocks and directive lines */
    int line;   /* of the heading, for errors */
    char *setup, *check, *reference;
    char *check_message; /* `check: EXPR | "message"`: said with a failing check */
    int setup_line, check_line, reference_line;
    char *hints[DRILL_MAX_HINTS];
    int n_hints;
    /* quiz: choices (right one marked), or accepted keyword alternatives */
    char *choices[DRILL_MAX_CHOICES];
    int n_choices, right_choice; /* right_choice is 1-based; 0 none */
    char *accept;                /* "word word | other words" */
    char *examples[DRILL_MAX_SAMPLES], *wrongs[DRILL_MAX_SAMPLES];
    int n_examples, n_wrongs;
    /* do: plausible wrong fixes (```wrong blocks): `nndb drill check` fails
     * the drill when the check holds after one of them */
    char *wrong_fixes[DRILL_MAX_SAMPLES];
    int wrong_fix_lines[DRILL_MAX_SAMPLES], n_wrong_fixes;
} drill_step;

typedef struct drill {
    char *path;
    char *id, *title, *teaches, *requires;
    int level, minutes;
    int points; /* what finishing the lesson is worth in `drill report`; 0: none */
    drill_step *steps;
    int n_steps;
} drill;

/* Parse [text] (the file at [path], for messages). Returns NULL with
 * "path:line: message" errors, one per line, in *err (malloc'ed). */
drill *drill_parse(const char *path, const char *text, char **err);
drill *drill_load(const char *path, char **err);
void drill_free(drill *d);
const char *drill_kind_name(drill_kind k);

/* Whether [answer] is accepted by quiz step [st]: a choice number or
 * letter, or the words of one accepted alternative (case-insensitive). */
bool drill_quiz_accepts(const drill_step *st, const char *answer);

/* The directories searched for drills, in order: each of NNDB_DRILLS_PATH
 * (colon-separated), then the built-in lessons. NULL-terminated, malloc'ed
 * strings in a malloc'ed array (drill_strv_free). */
char **drill_search_path(void);
void drill_strv_free(char **v);
/* The file of drill [id] on the search path, or NULL. Malloc'ed. */
char *drill_find(const char *id);

/* `nndb drill check FILE...`: validate, and run each do step's setup, check
 * (must be false), reference, check (must be true), and each quiz's
 * samples. Prints a summary to stdout, problems to stderr; returns the
 * number of drills that failed. */
int drill_check_files(int n, char **paths, bool verbose);

/* Install %drill on a session (the REPL and the kernel call this). */
bool drill_install(lang_session *s);

/* The REPL's prompt prefix while a drill is open on [s]: "[ID STEP/N]";
 * false (and "") when none is. */
bool drill_prompt(lang_session *s, char *buf, size_t cap);

/* `nndb drill ...`; returns the exit status. [start_repl] is called for
 * `nndb drill start ID` with the first cell to run. */
int drill_cli(int argc, char **argv, int (*start_repl)(const char *first_cell));

#endif
