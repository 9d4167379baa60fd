/* kernel_raster: a PNG beside each SVG picture the kernel sends, for
 * notebooks that show no SVG (an untrusted notebook, a shared handout,
 * shows PNG but not SVG), drawn from that SVG so the two forms cannot drift
 * apart.
 *
 * librsvg draws the SVG onto a cairo image surface and cairo writes the PNG.
 * Both (Debian's librsvg2-2 and libcairo2) are opened with dlopen by the
 * first picture, not at start-up: a kernel that never shows a picture never
 * loads them, and an install without them still runs (pictures then go as
 * SVG and text only).
 * Ownership: kernel_raster_png_base64 returns a malloc'ed string the caller
 * frees.
 */
#ifndef KERNEL_RASTER_H
#define KERNEL_RASTER_H

/* The PNG of [svg] at its intrinsic size, base64-encoded for a display
 * bundle's image/png; NULL when the libraries are missing or the SVG cannot
 * be drawn. */
char *kernel_raster_png_base64(const char *svg);

#endif
