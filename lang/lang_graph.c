/* The graph view: %graph (lang_graph.h). */
#include "lang_graph.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_display.h"
#include "lang_tensor.h"
#include "nn_anomaly.h"

#define MAX_NODES     4000
#define AUTO_COLLAPSE 60 /* more nodes than this: collapse repeated module subtrees */

/* ---- Graphviz through dlopen ---- */

typedef void *(*gv_context_fn)(void);
typedef void *(*ag_memread_fn)(const char *);
typedef int (*gv_layout_fn)(void *, void *, const char *);
typedef int (*gv_render_data_fn)(void *, void *, const char *, char **, unsigned int *);
typedef void (*gv_free_render_data_fn)(char *);
typedef int (*gv_free_layout_fn)(void *, void *);
typedef int (*ag_close_fn)(void *);

static struct {
    bool tried, ok;
    const char *why;
    gv_context_fn context;
    ag_memread_fn memread;
    gv_layout_fn layout;
    gv_render_data_fn render;
    gv_free_render_data_fn free_render;
    gv_free_layout_fn free_layout;
    ag_close_fn close;
    void *gvc;
} gv;
static pthread_mutex_t gv_lock = PTHREAD_MUTEX_INITIALIZER;

static void gv_open(void) {
    gv.tried = true;
    void *cg = dlopen("libcgraph.so.6", RTLD_NOW | RTLD_GLOBAL);
    void *g = dlopen("libgvc.so.6", RTLD_NOW | RTLD_GLOBAL);
    if (!g || !cg) {
        gv.why = "Graphviz (Debian's libgvc6) is not installed";
        return;
    }
    gv.context = (gv_context_fn)dlsym(g, "gvContext");
    gv.memread = (ag_memread_fn)dlsym(cg, "agmemread");
    gv.layout = (gv_layout_fn)dlsym(g, "gvLayout");
    gv.render = (gv_render_data_fn)dlsym(g, "gvRenderData");
    gv.free_render = (gv_free_render_data_fn)dlsym(g, "gvFreeRenderData");
    gv.free_layout = (gv_free_layout_fn)dlsym(g, "gvFreeLayout");
    gv.close = (ag_close_fn)dlsym(cg, "agclose");
    if (!gv.context || !gv.memread || !gv.layout || !gv.render || !gv.free_render ||
        !gv.free_layout || !gv.close) {
        gv.why = "this Graphviz lacks the functions nndb calls";
        return;
    }
    gv.gvc = gv.context();
    if (!gv.gvc) {
        gv.why = "Graphviz could not start";
        return;
    }
    gv.ok = true;
}

char *lang_graph_dot_to_svg(const char *dot, const char **why) {
    pthread_mutex_lock(&gv_lock);
    if (!gv.tried) gv_open();
    char *svg = NULL;
    if (!gv.ok) {
        if (why) *why = gv.why;
        pthread_mutex_unlock(&gv_lock);
        return NULL;
    }
    void *g = gv.memread(dot);
    if (!g) {
        if (why) *why = "Graphviz could not read the graph";
    } else {
        char *data = NULL;
        unsigned int len = 0;
        if (gv.layout(gv.gvc, g, "dot") == 0 && gv.render(gv.gvc, g, "svg", &data, &len) == 0 &&
            data) {
            svg = malloc(len + 1);
            if (svg) {
                memcpy(svg, data, len);
                svg[len] = 0;
            }
            gv.free_render(data);
        } else if (why) {
            *why = "Graphviz could not lay the graph out";
        }
        gv.free_layout(gv.gvc, g);
        gv.close(g);
    }
    pthread_mutex_unlock(&gv_lock);
    return svg;
}

/* ---- collecting the graph ---- */

typedef struct gnode {
    const nn_node *n;
    const char *group; /* collapsed module (interned copy), or NULL */
    int id;
} gnode;

typedef struct graph {
    gnode *nodes;
    int n, cap;
    bool truncated;
    int depth; /* --depth N, 0: none */
    const nn_node *current;
    const nn_tensor *current_out; /* the stop's output: not on the node until it is recorded */
} graph;

static const nn_tensor *node_out(const graph *g, const nn_node *n) {
    return n->out ? n->out : n == g->current ? g->current_out : NULL;
}

static int find(const graph *g, const nn_node *n) {
    for (int i = 0; i < g->n; i++)
        if (g->nodes[i].n == n) return i;
    return -1;
}

/* The producer of input [i]: recorded on the node, or, for the forward
 * node a stop is showing (recorded only after the hooks ran), read from the
 * input tensor itself. */
static const nn_node *input_fn(const nn_node *n, int i) {
    if (n->in[i].fn) return n->in[i].fn;
    const nn_tensor *t = n->in[i].t;
    return t && !n->refcount ? t->grad_fn : NULL;
}

/* Nodes reachable from [root], root first, in decreasing creation order. */
static void collect(graph *g, const nn_node *root) {
    const nn_node **stack = malloc(sizeof *stack * MAX_NODES);
    if (!stack) return;
    int sp = 0;
    stack[sp++] = root;
    while (sp) {
        const nn_node *n = stack[--sp];
        if (find(g, n) >= 0) continue;
        if (g->n == MAX_NODES) {
            g->truncated = true;
            break;
        }
        if (g->n == g->cap) {
            int cap = g->cap ? g->cap * 2 : 64;
            gnode *p = realloc(g->nodes, sizeof *p * (size_t)cap);
            if (!p) break;
            g->nodes = p;
            g->cap = cap;
        }
        g->nodes[g->n++] = (gnode){n, NULL, 0};
        for (int i = n->n_in - 1; i >= 0 && sp < MAX_NODES; i--) {
            const nn_node *f = input_fn(n, i);
            if (f) stack[sp++] = f;
        }
    }
    free(stack);
    /* newest first, as backward visits them */
    for (int i = 1; i < g->n; i++) {
        gnode x = g->nodes[i];
        int j = i - 1;
        while (j >= 0 && g->nodes[j].n->seq < x.n->seq) {
            g->nodes[j + 1] = g->nodes[j];
            j--;
        }
        g->nodes[j + 1] = x;
    }
    for (int i = 0; i < g->n; i++) g->nodes[i].id = i + 1;
}

/* Module path truncated to [depth] components, written into [buf]. */
static const char *prefix(const char *path, int depth, char *buf, size_t cap) {
    if (!path || depth <= 0) return NULL;
    const char *p = path;
    for (int k = 0; k < depth; k++) {
        p = strchr(p, '.');
        if (!p) return NULL; /* not deeper than depth */
        p++;
    }
    size_t len = (size_t)(p - path - 1);
    if (len >= cap) len = cap - 1;
    memcpy(buf, path, len);
    buf[len] = 0;
    return buf;
}

static int components(const char *path) {
    int n = path ? 1 : 0;
    for (const char *p = path; p && *p; p++) n += *p == '.';
    return n;
}

/* Decide which nodes collapse: those deeper than --depth, or, in a large
 * graph, the repeated children of a list of modules (blocks.0, blocks.1). */
static void choose_groups(graph *g) {
    int depth = g->depth;
    if (!depth && g->n > AUTO_COLLAPSE) {
        /* the shallowest depth at which some module has a numbered child */
        int best = 0;
        for (int i = 0; i < g->n && !best; i++) {
            const char *m = g->nodes[i].n->label.module;
            int k = 0;
            for (const char *p = m; p && *p; p++) {
                if (*p == '.') {
                    k++;
                    if (p[1] >= '0' && p[1] <= '9') {
                        best = k + 1;
                        break;
                    }
                }
            }
        }
        depth = best ? best : 2;
    }
    if (!depth) return;
    char buf[256];
    for (int i = 0; i < g->n; i++) {
        const char *m = g->nodes[i].n->label.module;
        if (components(m) > depth) {
            const char *p = prefix(m, depth, buf, sizeof buf);
            g->nodes[i].group = p ? strdup(p) : NULL;
        } else if (components(m) == depth && g->n > AUTO_COLLAPSE) {
            g->nodes[i].group = strdup(m);
        }
    }
}

/* ---- text ---- */

static void stats_text(lang_buf *b, const nn_tensor *t) {
    if (!t || !nn_dtype_is_float(t->dtype) || nn_tensor_numel(t) == 0) return;
    lang_debug_tstats st;
    lang_debug_stats(t, &st);
    if (st.bad == st.n) {
        lang_buf_printf(b, " all %lld non-finite", (long long)st.bad);
        return;
    }
    lang_buf_printf(b, " mean %.3g", st.mean);
    if (!isnan(st.std)) lang_buf_printf(b, " std %.3g", st.std);
    if (st.bad) lang_buf_printf(b, " %lld non-finite", (long long)st.bad);
}

static void shape_of_node(const graph *g, const nn_node *n, char *buf, size_t cap) {
    if (node_out(g, n)) {
        nn_tensor_shape_str(node_out(g, n), buf, cap);
    } else {
        nn_shape_str(buf, cap, n->out_ndim, n->out_shape);
    }
}

typedef struct group_info {
    char *name;
    int count;
    char *sig; /* op sequence, to find repeats */
    const char *same_as;
} group_info;

static void node_line(lang_vm *vm, lang_buf *b, const graph *g, const nn_node *n) {
    char sh[96];
    shape_of_node(g, n, sh, sizeof sh);
    lang_buf_printf(b, "%s %s", nn_op_name(n->op), sh);
    if (n->label.module) lang_buf_printf(b, "  (%s)", n->label.module);
    if (n->label.file) lang_buf_printf(b, "  %s:%d", n->label.file, n->label.line);
    stats_text(b, node_out(g, n));
    if (n->grad) {
        lang_buf_puts(b, "  grad:");
        stats_text(b, n->grad);
    }
    if (n == g->current) lang_buf_puts(b, "   <== stopped here");
}

static void text_tree(lang_vm *vm, lang_buf *b, const graph *g, group_info *gi, int ngi) {
    /* Each node once; a node used twice is "(see #k)" the second time. */
    bool *shown = calloc((size_t)g->n + 1, 1);
    bool *gshown = calloc((size_t)ngi + 1, 1);
    if (!shown || !gshown) {
        free(shown);
        free(gshown);
        return;
    }
    typedef struct {
        const nn_node *n;
        const nn_tensor *leaf;
        int depth;
    } item;
    item *stack = malloc(sizeof *stack * (MAX_NODES * 4 + 16));
    if (!stack) {
        free(shown);
        free(gshown);
        return;
    }
    int sp = 0;
    stack[sp++] = (item){g->nodes[0].n, NULL, 0};
    int lines = 0;
    while (sp && lines < 400) {
        item it = stack[--sp];
        lang_buf_printf(b, "%*s", it.depth * 2, "");
        lines++;
        if (it.leaf) {
            char nm[160], sh[96];
            const char *name = lang_debug_tensor_name(vm, it.leaf, nm, sizeof nm);
            nn_tensor_shape_str(it.leaf, sh, sizeof sh);
            lang_buf_printf(b, "%s %s %s", it.leaf->requires_grad ? "leaf" : "input",
                            name ? name : "", sh);
            stats_text(b, it.leaf);
            if (it.leaf->grad) {
                lang_buf_puts(b, "  grad:");
                stats_text(b, it.leaf->grad);
            }
            lang_buf_puts(b, "\n");
            continue;
        }
        int k = find(g, it.n);
        if (k < 0) {
            lang_buf_puts(b, "...\n");
            continue;
        }
        const gnode *gn = &g->nodes[k];
        if (gn->group) {
            int gidx = -1;
            for (int i = 0; i < ngi; i++)
                if (!strcmp(gi[i].name, gn->group)) gidx = i;
            if (gidx >= 0 && gshown[gidx]) {
                lang_buf_printf(b, "[%s] (see above)\n", gn->group);
                continue;
            }
            if (gidx >= 0) {
                gshown[gidx] = true;
                lang_buf_printf(b, "[%s] %d ops", gn->group, gi[gidx].count);
                if (gi[gidx].same_as) lang_buf_printf(b, ", the same ops as %s", gi[gidx].same_as);
                lang_buf_puts(b, "  (collapsed; %graph --depth N shows more)\n");
            }
            /* continue below the group: the inputs of all its nodes from outside */
            for (int i = g->n - 1; i >= 0; i--) {
                const gnode *m = &g->nodes[i];
                if (!m->group || strcmp(m->group, gn->group)) continue;
                for (int j = m->n->n_in - 1; j >= 0; j--) {
                    const nn_node *f = m->n->in[j].fn;
                    int fk = f ? find(g, f) : -1;
                    if (fk >= 0 && g->nodes[fk].group && !strcmp(g->nodes[fk].group, gn->group))
                        continue;
                    if (sp >= MAX_NODES * 4) break;
                    if (f) stack[sp++] = (item){f, NULL, it.depth + 1};
                }
            }
            continue;
        }
        if (shown[k]) {
            lang_buf_printf(b, "#%d %s (see above)\n", gn->id, nn_op_name(it.n->op));
            continue;
        }
        shown[k] = true;
        lang_buf_printf(b, "#%d ", gn->id);
        node_line(vm, b, g, it.n);
        lang_buf_puts(b, "\n");
        for (int j = it.n->n_in - 1; j >= 0 && sp < MAX_NODES * 4; j--) {
            const nn_input *in = &it.n->in[j];
            const nn_node *f = input_fn(it.n, j);
            if (f)
                stack[sp++] = (item){f, NULL, it.depth + 1};
            else if (in->t && (in->t->requires_grad || in->t->ndim > 0))
                stack[sp++] = (item){NULL, in->t, it.depth + 1};
        }
    }
    if (sp) lang_buf_puts(b, "... (more; %graph --depth N collapses modules)\n");
    free(stack);
    free(shown);
    free(gshown);
}

/* ---- DOT ---- */

static void dot_escape(lang_buf *b, const char *s) {
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            lang_buf_printf(b, "\\%c", *s);
        else if (*s == '\n')
            lang_buf_puts(b, "\\n");
        else
            lang_buf_add(b, s, 1);
    }
}

static void dot_graph(lang_vm *vm, lang_buf *b, const graph *g, group_info *gi, int ngi) {
    lang_buf_puts(
        b, "digraph G {\n rankdir=BT; size=\"9,14\"; node [shape=box, style=\"rounded,filled\", "
           "fillcolor=\"#f4f4f4\", fontname=\"monospace\", fontsize=10];\n"
           " edge [arrowsize=0.6];\n");
    /* clusters: one per module path of the nodes shown one by one */
    for (int i = 0; i < g->n; i++) {
        const gnode *gn = &g->nodes[i];
        if (gn->group) continue;
        char sh[96];
        shape_of_node(g, gn->n, sh, sizeof sh);
        lang_buf label;
        lang_buf_init(&label);
        lang_buf_printf(&label, "%s %s", nn_op_name(gn->n->op),
                        sh); /* the cluster names the module */
        if (node_out(g, gn->n)) {
            lang_buf_puts(&label, "\n");
            stats_text(&label, node_out(g, gn->n));
        }
        if (gn->n->grad) {
            lang_buf_puts(&label, "\ngrad");
            stats_text(&label, gn->n->grad);
        }
        lang_buf_printf(b, " n%d [label=\"", gn->id);
        dot_escape(b, label.data);
        lang_buf_puts(b, "\"");
        if (gn->n == g->current)
            lang_buf_puts(b, ", fillcolor=\"#ffd54f\", penwidth=2");
        else if (node_out(g, gn->n) && nn_tensor_nonfinite(node_out(g, gn->n), NULL, NULL))
            lang_buf_puts(b, ", fillcolor=\"#ef9a9a\"");
        lang_buf_puts(b, "];\n");
        lang_buf_free(&label);
    }
    for (int i = 0; i < ngi; i++) {
        lang_buf_printf(b, " g%d [shape=box3d, fillcolor=\"#e3f2fd\", label=\"", i);
        lang_buf label;
        lang_buf_init(&label);
        lang_buf_printf(&label, "%s\n%d ops", gi[i].name, gi[i].count);
        if (gi[i].same_as) lang_buf_printf(&label, "\nsame as %s", gi[i].same_as);
        dot_escape(b, label.data);
        lang_buf_free(&label);
        lang_buf_puts(b, "\"];\n");
    }
    /* module clusters */
    for (int i = 0; i < g->n; i++) {
        const gnode *gn = &g->nodes[i];
        const char *m = gn->n->label.module;
        if (gn->group || !m) continue;
        bool first = true;
        for (int j = 0; j < i; j++)
            if (!g->nodes[j].group && g->nodes[j].n->label.module &&
                !strcmp(g->nodes[j].n->label.module, m))
                first = false;
        if (!first) continue;
        lang_buf_printf(b, " subgraph cluster_%d { label=\"", i);
        dot_escape(b, m);
        lang_buf_puts(b,
                      "\"; style=dashed; color=\"#90a4ae\"; fontname=\"monospace\"; fontsize=9;");
        for (int j = i; j < g->n; j++)
            if (!g->nodes[j].group && g->nodes[j].n->label.module &&
                !strcmp(g->nodes[j].n->label.module, m))
                lang_buf_printf(b, " n%d;", g->nodes[j].id);
        lang_buf_puts(b, " }\n");
    }
    /* edges, leaves */
    int leaf_id = 0;
    for (int i = 0; i < g->n; i++) {
        const gnode *gn = &g->nodes[i];
        char to[32];
        if (gn->group) {
            int gidx = 0;
            for (int k = 0; k < ngi; k++)
                if (!strcmp(gi[k].name, gn->group)) gidx = k;
            snprintf(to, sizeof to, "g%d", gidx);
        } else {
            snprintf(to, sizeof to, "n%d", gn->id);
        }
        for (int j = 0; j < gn->n->n_in; j++) {
            const nn_input *in = &gn->n->in[j];
            const nn_node *fn = input_fn(gn->n, j);
            char from[32];
            if (fn) {
                int fk = find(g, fn);
                if (fk < 0) continue;
                const gnode *f = &g->nodes[fk];
                if (f->group) {
                    if (gn->group && !strcmp(f->group, gn->group)) continue;
                    int gidx = 0;
                    for (int k = 0; k < ngi; k++)
                        if (!strcmp(gi[k].name, f->group)) gidx = k;
                    snprintf(from, sizeof from, "g%d", gidx);
                } else {
                    snprintf(from, sizeof from, "n%d", f->id);
                }
            } else if (in->t && in->t->requires_grad) {
                char nm[160], sh[96];
                const char *name = lang_debug_tensor_name(vm, in->t, nm, sizeof nm);
                nn_tensor_shape_str(in->t, sh, sizeof sh);
                snprintf(from, sizeof from, "l%d", ++leaf_id);
                lang_buf label;
                lang_buf_init(&label);
                lang_buf_printf(&label, "%s %s", name ? name : "leaf", sh);
                if (in->t->grad) {
                    lang_buf_puts(&label, "\ngrad");
                    stats_text(&label, in->t->grad);
                }
                lang_buf_printf(b, " %s [shape=ellipse, fillcolor=\"#e8f5e9\", label=\"", from);
                dot_escape(b, label.data);
                lang_buf_puts(b, "\"];\n");
                lang_buf_free(&label);
            } else {
                continue;
            }
            lang_buf_printf(b, " %s -> %s;\n", from, to);
        }
    }
    lang_buf_puts(b, "}\n");
}

/* ---- the magic ---- */

static void groups_of(graph *g, group_info **out, int *nout) {
    group_info *gi = NULL;
    int n = 0;
    for (int i = g->n - 1; i >= 0; i--) { /* oldest first: first instance first */
        const char *name = g->nodes[i].group;
        if (!name) continue;
        int k = -1;
        for (int j = 0; j < n; j++)
            if (!strcmp(gi[j].name, name)) k = j;
        if (k < 0) {
            group_info *p = realloc(gi, sizeof *p * (size_t)(n + 1));
            if (!p) break;
            gi = p;
            gi[n] = (group_info){strdup(name), 0, NULL, NULL};
            k = n++;
        }
        gi[k].count++;
        lang_buf s;
        lang_buf_init(&s);
        if (gi[k].sig) lang_buf_puts(&s, gi[k].sig);
        lang_buf_printf(&s, "%s,", nn_op_name(g->nodes[i].n->op));
        free(gi[k].sig);
        gi[k].sig = lang_buf_take(&s);
        lang_buf_free(&s);
    }
    for (int k = 1; k < n; k++)
        for (int j = 0; j < k && !gi[k].same_as; j++)
            if (gi[j].sig && gi[k].sig && !strcmp(gi[j].sig, gi[k].sig)) gi[k].same_as = gi[j].name;
    *out = gi;
    *nout = n;
}

bool lang_graph_magic(lang_vm *vm, const char *args) {
    int depth = 0;
    const char *p = args;
    while (*p == ' ') p++;
    if (!strncmp(p, "--depth", 7)) {
        p += 7;
        while (*p == ' ' || *p == '=') p++;
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || d < 1 || d > 64)
            return lang_raise(vm, LANG_ERR_VALUE, "%%graph --depth needs a number from 1 to 64");
        depth = (int)d;
        p = end;
        while (*p == ' ') p++;
    }
    const nn_node *root = NULL, *current = NULL;
    nn_tensor *hold = NULL;
    const nn_hook_event *ev = lang_debug_current(vm);
    if (ev) current = ev->node;
    if (*p) {
        lang_val v = lang_none();
        if (!lang_eval_code(vm, p, "<graph>", true, &v)) return false;
        nn_tensor *t = lang_tensor_of(v);
        if (!t) {
            bool r =
                lang_raise(vm, LANG_ERR_TYPE, "%%graph needs a tensor, got %s", lang_type_name(v));
            lang_val_release(v);
            return r;
        }
        hold = nn_tensor_retain(t);
        lang_val_release(v);
        if (!t->grad_fn) {
            nn_tensor_release(hold);
            return lang_raise(vm, LANG_ERR_VALUE,
                              "this tensor has no recorded graph (a leaf, or made under no_grad)");
        }
        root = t->grad_fn;
    } else if (ev && ev->phase == NN_PHASE_FORWARD) {
        root = ev->node; /* the graph so far: this node and what it consumes */
    } else if (lang_debug_last_root(vm) && lang_debug_last_root(vm)->grad_fn) {
        root = lang_debug_last_root(vm)->grad_fn;
    } else {
        return lang_raise(vm, LANG_ERR_VALUE,
                          "no graph to show yet: %%graph EXPR shows the graph behind a tensor "
                          "(%%graph loss); after backward() %%graph alone shows that graph");
    }
    graph g;
    memset(&g, 0, sizeof g);
    g.depth = depth;
    g.current = current;
    g.current_out = ev ? ev->output : NULL;
    collect(&g, root);
    if (!g.n) {
        nn_tensor_release(hold);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory for the graph");
    }
    choose_groups(&g);
    group_info *gi = NULL;
    int ngi = 0;
    groups_of(&g, &gi, &ngi);

    lang_buf text, dot;
    lang_buf_init(&text);
    lang_buf_init(&dot);
    lang_buf_printf(&text, "graph of %d node%s%s (newest first; leaves and parameters by name)\n",
                    g.n, g.n == 1 ? "" : "s", g.truncated ? ", cut at 4000" : "");
    text_tree(vm, &text, &g, gi, ngi);
    dot_graph(vm, &dot, &g, gi, ngi);
    const char *why = NULL;
    char *svg = lang_graph_dot_to_svg(dot.data, &why);
    if (!svg && why) lang_buf_printf(&text, "(no picture: %s)\n", why);
    lang_mime mb;
    lang_mime_init(&mb);
    lang_mime_add(&mb, "text/plain", lang_buf_take(&text));
    if (svg) {
        /* Graphviz starts with an XML prolog and a DOCTYPE; the notebook wants the <svg> element.
         */
        char *start = strstr(svg, "<svg");
        char *s = strdup(start ? start : svg);
        free(svg);
        if (s) lang_mime_add(&mb, "image/svg+xml", s);
    }
    lang_vm_display(vm, &mb, NULL, false);
    lang_mime_free(&mb);
    lang_buf_free(&text);
    lang_buf_free(&dot);
    for (int i = 0; i < ngi; i++) {
        free(gi[i].name);
        free(gi[i].sig);
    }
    free(gi);
    for (int i = 0; i < g.n; i++) free((char *)g.nodes[i].group);
    free(g.nodes);
    nn_tensor_release(hold);
    return true;
}
