/* nn_probe_host: the host side of the GPU stack.
 *
 * Kernel release and command line (IOMMU and ASPM settings), loaded kernel
 * modules, the DMI chassis type, the current user's uid and groups, and the
 * device nodes GPU runtimes open (/dev/kfd, /dev/dri/renderD*, /dev/nvidia*),
 * with whether this user can open them, computed from mode, owner and group
 * (tests run as root, so access(2) alone would always say yes). Writes into an
 * nn_probe_result the caller owns.
 */
#ifndef NN_PROBE_HOST_H
#define NN_PROBE_HOST_H

#include "nn_probe.h"

void nn_probe_host_read(const nn_probe_fs *fs, nn_probe_result *res);

/* Whether [res]'s user can read and write a node of [mode], [uid], [gid]. */
bool nn_probe_host_can_open(const nn_probe_result *res, unsigned mode, unsigned uid, unsigned gid);

/* The group name for [gid] from etc/group under the root, else the number. */
void nn_probe_host_group_name(const nn_probe_fs *fs, unsigned gid, char *out, size_t size);

/* The gid of group [name] in etc/group under the root; false when unknown. */
bool nn_probe_host_group_gid(const nn_probe_fs *fs, const char *name, unsigned *gid);

/* The node at machine path [path] ("/dev/kfd"), or NULL. */
const nn_probe_node *nn_probe_host_node(const nn_probe_result *res, const char *path);

#endif
