/* lang_raster: PNG pictures drawn from the SVG that lang_display writes, for
 * front ends that need a raster beside the vector form (an untrusted
 * notebook shows no SVG, but shows PNG).
 *
 * The SVG is the one plot description: librsvg draws it onto a cairo image
 * surface and cairo writes the PNG, so the two forms cannot drift apart and
 * there is no second hand-written renderer. Both libraries (Debian's
 * librsvg2-2 and libcairo2) are opened with dlopen by the first picture, not
 * at start-up: the REPL and `nndb run` never pay for them, and an install
 * without them still runs (pictures then come as SVG and text only).
 *
 * The few entry points are declared here by hand with the C types of their
 * documented ABI, so the build needs no -dev package.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "lang_value.h"

typedef struct rsvg_rect {
    double x, y, width, height;
} rsvg_rect;

typedef struct gerror {
    uint32_t domain;
    int code;
    char *message;
} gerror;

typedef int (*cairo_write_fn)(void *closure, const unsigned char *data, unsigned int len);

static struct {
    void *(*handle_new_from_data)(const uint8_t *data, size_t n, gerror **err);
    int (*intrinsic_size)(void *handle, double *w, double *h);
    int (*render_document)(void *handle, void *cr, const rsvg_rect *viewport, gerror **err);
    void (*object_unref)(void *obj);
    void (*error_free)(gerror *err);
    void *(*image_surface_create)(int format, int w, int h);
    void *(*create)(void *surface);
    void (*scale)(void *cr, double sx, double sy);
    void (*destroy)(void *cr);
    void (*surface_destroy)(void *surface);
    int (*surface_status)(void *surface);
    int (*write_to_png_stream)(void *surface, cairo_write_fn fn, void *closure);
    const char *missing; /* why there is no renderer, or NULL */
} R;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name) {
    void *p = h ? dlsym(h, name) : NULL;
    if (!p && !R.missing) R.missing = name;
    return p;
}

#define LOAD(field, lib, name) *(void **)(&R.field) = sym(lib, name)

static void load(void) {
    void *rsvg = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    void *cairo = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    void *gobj = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!rsvg || !cairo || !gobj || !glib) {
        R.missing = !rsvg ? "librsvg-2.so.2" : !cairo ? "libcairo.so.2" : "glib";
        return;
    }
    LOAD(handle_new_from_data, rsvg, "rsvg_handle_new_from_data");
    LOAD(intrinsic_size, rsvg, "rsvg_handle_get_intrinsic_size_in_pixels");
    LOAD(render_document, rsvg, "rsvg_handle_render_document");
    LOAD(object_unref, gobj, "g_object_unref");
    LOAD(error_free, glib, "g_error_free");
    LOAD(image_surface_create, cairo, "cairo_image_surface_create");
    LOAD(create, cairo, "cairo_create");
    LOAD(scale, cairo, "cairo_scale");
    LOAD(destroy, cairo, "cairo_destroy");
    LOAD(surface_destroy, cairo, "cairo_surface_destroy");
    LOAD(surface_status, cairo, "cairo_surface_status");
    LOAD(write_to_png_stream, cairo, "cairo_surface_write_to_png_stream");
}

static int collect(void *closure, const unsigned char *data, unsigned int len) {
    lang_buf_add(closure, (const char *)data, len);
    return 0; /* CAIRO_STATUS_SUCCESS */
}

const char *lang_raster_unavailable(void) {
    pthread_once(&once, load);
    return R.missing;
}

unsigned char *lang_svg_to_png(const char *svg, double scale, size_t *len) {
    enum { CAIRO_FORMAT_ARGB32 = 0, MAX_SIDE = 8192 };
    *len = 0;
    if (!svg || lang_raster_unavailable()) return NULL;
    if (!(scale > 0) || scale > 4) scale = 1;
    gerror *err = NULL;
    void *h = R.handle_new_from_data((const uint8_t *)svg, strlen(svg), &err);
    if (!h) {
        if (err) R.error_free(err);
        return NULL;
    }
    double w = 0, ht = 0;
    if (!R.intrinsic_size(h, &w, &ht) || !(w >= 1 && ht >= 1) || w * scale > MAX_SIDE ||
        ht * scale > MAX_SIDE) {
        R.object_unref(h);
        return NULL;
    }
    int pw = (int)(w * scale + 0.5), ph = (int)(ht * scale + 0.5);
    void *surface = R.image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
    unsigned char *png = NULL;
    if (surface && R.surface_status(surface) == 0) {
        void *cr = R.create(surface);
        R.scale(cr, scale, scale);
        rsvg_rect vp = {0, 0, w, ht};
        bool drawn = R.render_document(h, cr, &vp, &err);
        if (err) R.error_free(err);
        R.destroy(cr);
        lang_buf b;
        lang_buf_init(&b);
        if (drawn && R.write_to_png_stream(surface, collect, &b) == 0 && b.len) {
            *len = b.len;
            png = (unsigned char *)lang_buf_take(&b);
        } else {
            lang_buf_free(&b);
        }
    }
    if (surface) R.surface_destroy(surface);
    R.object_unref(h);
    return png;
}

static char *base64(const unsigned char *p, size_t n) {
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out) return NULL;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *o++ = tab[v >> 18], *o++ = tab[(v >> 12) & 63], *o++ = tab[(v >> 6) & 63];
        *o++ = tab[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *o++ = tab[v >> 18], *o++ = tab[(v >> 12) & 63];
        *o++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o = 0;
    return out;
}

bool lang_mime_add_png(lang_mime *m) {
    const char *svg = lang_mime_get(m, "image/svg+xml");
    if (!svg || lang_mime_get(m, "image/png")) return false;
    size_t n;
    unsigned char *png = lang_svg_to_png(svg, 1, &n);
    if (!png) return false;
    char *b64 = base64(png, n);
    free(png);
    if (!b64) return false;
    lang_mime_add(m, "image/png", b64);
    return true;
}
