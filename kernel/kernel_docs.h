/* kernel_docs: nndb's own documentation (the Markdown pages of docs/) as
 * HTML inside the kernelspec, so that the kernel's help links open nndb's
 * pages through the notebook server (which serves a kernelspec's files at
 * /kernelspecs/NAME/...), also on a machine without the source tree.
 *
 * The converter knows the Markdown the docs use: headings, paragraphs,
 * fenced and indented code, lists, tables, `code`, **strong** and links
 * (links to another page's .md go to its .html). Everything else is text.
 * Ownership: kernel_docs_html returns a malloc'ed string the caller frees.
 */
#ifndef KERNEL_DOCS_H
#define KERNEL_DOCS_H

/* One page: [md] as a whole HTML document titled [title]. */
char *kernel_docs_html(const char *md, const char *title);

/* Each Markdown page of SRC_DIR as an HTML page of DEST_DIR, and DEST_DIR/index.html listing
 * them (DEST_DIR is created). Returns the number of pages written, or -1
 * when SRC_DIR cannot be read or the index cannot be written. */
int kernel_docs_install(const char *src_dir, const char *dest_dir);

#endif
