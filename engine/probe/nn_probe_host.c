#include "nn_probe_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Modules whose presence the doctor reasons about. */
static const char *const modules[] = {
    "amdgpu",  "amdkfd", "nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset",
    "nouveau", "radeon", "i915",   "xe",         "vfio_pci"};

static void read_modules(const nn_probe_fs *fs, nn_probe_result *res) {
    const size_t size = 1 << 17;
    char *buf = malloc(size);
    long n = buf ? nn_probe_fs_read(fs, "proc/modules", buf, size) : -1;
    for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++) {
        char key[64], rel[128];
        snprintf(key, sizeof key, "host.module.%s", modules[m]);
        bool found = false;
        if (n > 0) {
            size_t len = strlen(modules[m]);
            for (const char *line = buf; line && *line;) {
                if (!strncmp(line, modules[m], len) && line[len] == ' ') {
                    found = true;
                    break;
                }
                line = strchr(line, '\n');
                if (line) line++;
            }
        }
        /* A module built into the kernel is not in /proc/modules but has sys/module/<name>
         * with no initstate file. */
        snprintf(rel, sizeof rel, "sys/module/%s", modules[m]);
        if (found) {
            nn_probe_add_int(&res->host, key, 1, "", "proc/modules");
        } else if (nn_probe_fs_exists(fs, rel) &&
                   (snprintf(rel, sizeof rel, "sys/module/%s/initstate", modules[m]),
                    !nn_probe_fs_exists(fs, rel))) {
            snprintf(rel, sizeof rel, "sys/module/%s", modules[m]);
            nn_probe_add_int(&res->host, key, 1, "", rel);
        } else if (n >= 0) {
            nn_probe_add_int(&res->host, key, 0, "", "proc/modules");
        } else {
            nn_probe_add_na(&res->host, key, NN_PROBE_INT, "", "proc/modules", "unreadable");
        }
    }
    free(buf);
}

static void read_cmdline(const nn_probe_fs *fs, nn_probe_result *res) {
    char buf[4096], opts[1024] = "";
    if (nn_probe_fs_read(fs, "proc/cmdline", buf, sizeof buf) < 0) {
        nn_probe_add_na(&res->host, "host.cmdline", NN_PROBE_STR, "", "proc/cmdline", "missing");
        return;
    }
    nn_probe_trim(buf);
    nn_probe_add_str(&res->host, "host.cmdline", buf, "proc/cmdline");
    size_t off = 0;
    for (char *sv_, *t = strtok_r(buf, " \t\n", &sv_); t; t = strtok_r(NULL, " \t\n", &sv_)) {
        if (strstr(t, "iommu") || !strncmp(t, "pcie_aspm", 9) || !strncmp(t, "pci=", 4) ||
            !strncmp(t, "amdgpu.", 7) || !strncmp(t, "nvidia", 6)) {
            if (off < sizeof opts)
                off += (size_t)snprintf(opts + off, sizeof opts - off, "%s%s", off ? " " : "", t);
        }
    }
    nn_probe_add_str(&res->host, "host.cmdline.gpu_options", opts, "proc/cmdline");
}

/* etc/group lines: name:x:gid:members */
static bool group_lookup(const nn_probe_fs *fs, const char *name, unsigned gid, char *out,
                         size_t out_size, unsigned *gid_out) {
    const size_t size = 1 << 16;
    char *buf = malloc(size);
    if (!buf || nn_probe_fs_read(fs, "etc/group", buf, size) <= 0) {
        free(buf);
        return false;
    }
    bool found = false;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c1 = strchr(line, ':');
        if (!c1) continue;
        char *c2 = strchr(c1 + 1, ':');
        if (!c2) continue;
        *c1 = '\0';
        int64_t g;
        char *c3 = strchr(c2 + 1, ':');
        if (c3) *c3 = '\0';
        if (!nn_probe_parse_int(c2 + 1, &g) || g < 0 || g > 0xffffffffLL) continue;
        if (name ? !strcmp(line, name) : (unsigned)g == gid) {
            if (out) nn_probe_strlcpy(out, line, out_size);
            if (gid_out) *gid_out = (unsigned)g;
            found = true;
            break;
        }
    }
    free(buf);
    return found;
}

void nn_probe_host_group_name(const nn_probe_fs *fs, unsigned gid, char *out, size_t size) {
    if (!group_lookup(fs, NULL, gid, out, size, NULL)) snprintf(out, size, "%u", gid);
}

bool nn_probe_host_group_gid(const nn_probe_fs *fs, const char *name, unsigned *gid) {
    return group_lookup(fs, name, 0, NULL, 0, gid);
}

static bool user_ids_overridden(void) {
    return getenv("NNDB_PROBE_UID") != NULL || getenv("NNDB_PROBE_GROUPS") != NULL;
}

static void read_user(const nn_probe_fs *fs, nn_probe_result *res) {
    const char *env_uid = getenv("NNDB_PROBE_UID"), *env_groups = getenv("NNDB_PROBE_GROUPS");
    int64_t v;
    res->user_uid = (unsigned)getuid();
    const char *uid_src = "getuid()";
    if (env_uid && nn_probe_parse_int(env_uid, &v) && v >= 0 && v <= 0xffffffffLL)
        res->user_uid = (unsigned)v, uid_src = "NNDB_PROBE_UID";
    res->n_user_gids = 0;
    const char *grp_src = "getgroups()";
    if (env_groups) {
        grp_src = "NNDB_PROBE_GROUPS";
        char tmp[512];
        nn_probe_strlcpy(tmp, env_groups, sizeof tmp);
        for (char *sv_, *t = strtok_r(tmp, ", ", &sv_); t && res->n_user_gids < 64;
             t = strtok_r(NULL, ", ", &sv_))
            if (nn_probe_parse_int(t, &v) && v >= 0 && v <= 0xffffffffLL)
                res->user_gids[res->n_user_gids++] = (unsigned)v;
    } else {
        gid_t g[64];
        int n = getgroups(64, g);
        res->user_gids[res->n_user_gids++] = (unsigned)getgid();
        for (int i = 0; i < n && res->n_user_gids < 64; i++)
            if ((unsigned)g[i] != res->user_gids[0])
                res->user_gids[res->n_user_gids++] = (unsigned)g[i];
    }
    nn_probe_add_int(&res->host, "host.user.uid", res->user_uid, "", uid_src);
    char list[1024] = "";
    size_t off = 0;
    for (int i = 0; i < res->n_user_gids && off < sizeof list; i++) {
        char name[64];
        nn_probe_host_group_name(fs, res->user_gids[i], name, sizeof name);
        off += (size_t)snprintf(list + off, sizeof list - off, "%s%u(%s)", i ? " " : "",
                                res->user_gids[i], name);
    }
    nn_probe_add_str(&res->host, "host.user.groups", list, grp_src);
}

bool nn_probe_host_can_open(const nn_probe_result *res, unsigned mode, unsigned uid, unsigned gid) {
    if (res->user_uid == 0) return true;
    if (uid == res->user_uid) return (mode & 0600) == 0600;
    for (int i = 0; i < res->n_user_gids; i++)
        if (res->user_gids[i] == gid) return (mode & 060) == 060;
    return (mode & 06) == 06;
}

/* dev/.nndb-nodes (recorded trees only): "<path under dev> <c|b> <octal mode> <uid> <gid>". */
static bool recorded_node(const nn_probe_fs *fs, const char *sub, nn_probe_node *nd) {
    char buf[1 << 14];
    if (!fs->root[0] || nn_probe_fs_read(fs, "dev/.nndb-nodes", buf, sizeof buf) <= 0) return false;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char path[64], type;
        unsigned mode, uid, gid;
        if (line[0] == '#') continue;
        if (sscanf(line, "%63s %c %o %u %u", path, &type, &mode, &uid, &gid) != 5) continue;
        if (strcmp(path, sub) != 0) continue;
        nd->type = type == 'c' || type == 'b' ? type : '?';
        nd->mode = mode & 07777;
        nd->uid = uid;
        nd->gid = gid;
        nn_probe_strlcpy(nd->source, "dev/.nndb-nodes", sizeof nd->source);
        return true;
    }
    return false;
}

static void add_node(const nn_probe_fs *fs, nn_probe_result *res, const char *sub) {
    char rel[128], path[NN_PROBE_PATH_MAX];
    snprintf(rel, sizeof rel, "dev/%s", sub);
    nn_probe_node nd;
    memset(&nd, 0, sizeof nd);
    snprintf(nd.path, sizeof nd.path, "/dev/%s", sub);
    if (!recorded_node(fs, sub, &nd)) {
        struct stat st;
        nn_probe_fs_path(fs, rel, path, sizeof path);
        if (stat(path, &st) != 0) return;
        nd.type = S_ISCHR(st.st_mode) ? 'c' : S_ISBLK(st.st_mode) ? 'b' : 'f';
        nd.mode = st.st_mode & 07777;
        nd.uid = st.st_uid;
        nd.gid = st.st_gid;
        nn_probe_strlcpy(nd.source, "stat", sizeof nd.source);
    }
    nn_probe_host_group_name(fs, nd.gid, nd.group, sizeof nd.group);
    nd.can_open = nn_probe_host_can_open(res, nd.mode, nd.uid, nd.gid);
    /* On the real machine, for a non-root user, access(2) also sees ACLs that logind
     * grants to the seated user, so it is the better answer there. */
    if (!fs->root[0] && !user_ids_overridden() && geteuid() != 0) {
        nn_probe_fs_path(fs, rel, path, sizeof path);
        nd.can_open = access(path, R_OK | W_OK) == 0;
        nn_probe_strlcpy(nd.source, "stat + access(2)", sizeof nd.source);
    }
    nn_probe_node *nv = realloc(res->nodes, (size_t)(res->n_nodes + 1) * sizeof *nv);
    if (!nv) return;
    res->nodes = nv;
    res->nodes[res->n_nodes++] = nd;
}

const nn_probe_node *nn_probe_host_node(const nn_probe_result *res, const char *path) {
    for (int i = 0; i < res->n_nodes; i++)
        if (!strcmp(res->nodes[i].path, path)) return &res->nodes[i];
    return NULL;
}

static void read_nodes(const nn_probe_fs *fs, nn_probe_result *res) {
    char **names;
    add_node(fs, res, "kfd");
    int n = nn_probe_fs_list(fs, "dev", "nvidia", &names);
    for (int i = 0; i < n && i < 64; i++) add_node(fs, res, names[i]);
    nn_probe_fs_list_free(names, n);
    n = nn_probe_fs_list(fs, "dev/dri", NULL, &names);
    for (int i = 0; i < n && i < 64; i++) {
        if (strncmp(names[i], "renderD", 7) && strncmp(names[i], "card", 4)) continue;
        char sub[96];
        snprintf(sub, sizeof sub, "dri/%s", names[i]);
        add_node(fs, res, sub);
    }
    nn_probe_fs_list_free(names, n);
    nn_probe_add_int(&res->host, "host.device_nodes", res->n_nodes, "", "dev");
}

void nn_probe_host_read(const nn_probe_fs *fs, nn_probe_result *res) {
    nn_probe_add_file_str(&res->host, fs, "host.kernel", "proc/sys/kernel/osrelease");
    read_cmdline(fs, res);
    read_modules(fs, res);
    nn_probe_add_file_int(&res->host, fs, "host.chassis_type", "sys/class/dmi/id/chassis_type", "");
    nn_probe_add_file_str(&res->host, fs, "host.board", "sys/class/dmi/id/board_name");
    read_user(fs, res);
    read_nodes(fs, res);
}
