/* kernel_raster: PNG pictures drawn from SVG (kernel_raster.h).
 *
 * The few entry points of librsvg, cairo and GLib are declared here by hand
 * with the C types of their documented ABI, so the build needs no -dev
 * package. */
#include "kernel_raster.h"

#include "nn_buf.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    void (*destroy)(void *cr);
    void (*surface_destroy)(void *surface);
    int (*surface_status)(void *surface);
    int (*write_to_png_stream)(void *surface, cairo_write_fn fn, void *closure);
    bool missing; /* a library or one of its symbols is not there */
} R;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *sym(void *lib, const char *name) {
    void *p = lib ? dlsym(lib, name) : NULL;
    if (!p) R.missing = true;
    return p;
}

#define LOAD(field, lib, name) *(void **)(&R.field) = sym(lib, name)

static void load(void) {
    void *rsvg = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    void *cairo = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    void *gobj = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!rsvg || !cairo || !gobj || !glib) {
        R.missing = true;
        return;
    }
    LOAD(handle_new_from_data, rsvg, "rsvg_handle_new_from_data");
    LOAD(intrinsic_size, rsvg, "rsvg_handle_get_intrinsic_size_in_pixels");
    LOAD(render_document, rsvg, "rsvg_handle_render_document");
    LOAD(object_unref, gobj, "g_object_unref");
    LOAD(error_free, glib, "g_error_free");
    LOAD(image_surface_create, cairo, "cairo_image_surface_create");
    LOAD(create, cairo, "cairo_create");
    LOAD(destroy, cairo, "cairo_destroy");
    LOAD(surface_destroy, cairo, "cairo_surface_destroy");
    LOAD(surface_status, cairo, "cairo_surface_status");
    LOAD(write_to_png_stream, cairo, "cairo_surface_write_to_png_stream");
}

typedef struct bytes {
    unsigned char *p;
    size_t len, cap;
    bool failed;
} bytes;

/* cairo's write callback: appends to the bytes in [closure]. */
static int collect(void *closure, const unsigned char *data, unsigned int len) {
    enum { CAIRO_STATUS_SUCCESS = 0, CAIRO_STATUS_WRITE_ERROR = 11 };
    bytes *b = closure;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return CAIRO_STATUS_WRITE_ERROR;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return CAIRO_STATUS_SUCCESS;
}

char *kernel_raster_png_base64(const char *svg) {
    /* A picture larger than this is not one of nndb's charts; drawing it
     * would only cost memory. */
    enum { CAIRO_FORMAT_ARGB32 = 0, MAX_SIDE = 8192 };
    pthread_once(&once, load);
    if (!svg || R.missing) return NULL;
    gerror *err = NULL;
    void *h = R.handle_new_from_data((const uint8_t *)svg, strlen(svg), &err);
    if (!h) {
        if (err) R.error_free(err);
        return NULL;
    }
    double w = 0, ht = 0;
    if (!R.intrinsic_size(h, &w, &ht) || !(w >= 1 && ht >= 1) || w > MAX_SIDE || ht > MAX_SIDE) {
        R.object_unref(h);
        return NULL;
    }
    void *surface = R.image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w + 0.5), (int)(ht + 0.5));
    char *out = NULL;
    if (surface && R.surface_status(surface) == 0) {
        void *cr = R.create(surface);
        rsvg_rect viewport = {0, 0, w, ht};
        bool drawn = R.render_document(h, cr, &viewport, &err);
        if (err) R.error_free(err);
        R.destroy(cr);
        bytes b = {0};
        if (drawn && R.write_to_png_stream(surface, collect, &b) == 0 && !b.failed && b.len)
            out = nn_base64_encode(b.p, b.len);
        free(b.p);
    }
    if (surface) R.surface_destroy(surface);
    R.object_unref(h);
    return out;
}
