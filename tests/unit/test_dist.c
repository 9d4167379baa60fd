/* nn_dist without MPI: DistributedSampler's order and the randperm it uses
 * against PyTorch's (tests/torch/ref_dist.py), and the errors every entry point gives before
 * init_process_group. The collectives themselves run under mpirun in
 * tests/dist/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_dist.h"
#include "nn_mem.h"
#include "nn_ops.h"
#include "nn_random.h"
#include "testutil.h"

static int64_t read_ints(char **p, int64_t *out, int cap) {
    int n = 0;
    char *end;
    while (n < cap) {
        long long v = strtoll(*p, &end, 10);
        if (end == *p) break;
        out[n++] = v;
        *p = end;
    }
    return n;
}

NN_TEST(dist_sampler_matches_torch) {
    char path[512];
    const char *dir = getenv("NNDB_REF_DIR");
    snprintf(path, sizeof path, "%s/dist_sampler.txt", dir ? dir : "build/ref");
    char *text = tu_read_file(path);
    CHECK_MSG(text, "missing %s (run tests/torch/ref_dist.py)", path);
    if (!text) return;
    nn_ctx *ctx = nn_ctx_new(0);
    int perms = 0, samplers = 0;
    static int64_t v[4096], got[4096];
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *p = line;
        if (!strncmp(p, "randperm ", 9)) {
            p += 9;
            int64_t n = read_ints(&p, v, 4096);
            int64_t len = v[0];
            nn_rng g;
            nn_rng_seed(&g, (uint64_t)v[1]);
            nn_random_perm_into(&g, got, len);
            CHECK_MSG(n == len + 2 && !memcmp(got, v + 2, sizeof(int64_t) * (size_t)len),
                      "randperm(%lld) seed %lld differs from torch's", (long long)len,
                      (long long)v[1]);
            perms++;
        } else if (!strncmp(p, "sampler ", 8)) {
            p += 8;
            int64_t n = read_ints(&p, v, 4096);
            nn_dist_sampler s = {v[0], (int)v[1], (int)v[2], v[3] != 0, v[4] != 0};
            nn_rng g;
            nn_rng_seed(&g, (uint64_t)(v[5] + v[6]));
            int64_t *idx = NULL, k = 0;
            CHECK(nn_dist_sampler_indices(ctx, &s, &g, &idx, &k) == NN_OK);
            CHECK(k == nn_dist_sampler_num_samples(&s));
            CHECK_MSG(k == n - 7 && !memcmp(idx, v + 7, sizeof(int64_t) * (size_t)k),
                      "sampler len %lld replicas %lld rank %lld shuffle %lld drop %lld differs",
                      (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3],
                      (long long)v[4]);
            free(idx);
            samplers++;
        }
    }
    CHECK_MSG(perms == 7 && samplers == 17, "read %d randperm and %d sampler cases", perms,
              samplers);
    free(text);
    nn_ctx_free(ctx);
}

NN_TEST(dist_without_group_is_an_error) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, 1, (int64_t[]){3});
    CHECK(!nn_dist_is_initialized());
    CHECK(nn_dist_rank() == 0 && nn_dist_world_size() == 1);
    CHECK(nn_dist_all_reduce(ctx, t, NN_DIST_SUM) == NN_ERR_RUNTIME);
    CHECK(strstr(nn_ctx_error(ctx), "all_reduce: no process group"));
    CHECK(nn_dist_broadcast(ctx, t, 0) == NN_ERR_RUNTIME);
    CHECK(nn_dist_barrier(ctx) == NN_ERR_RUNTIME);
    CHECK(nn_dist_send(ctx, t, 1, 0) == NN_ERR_RUNTIME);
    int from = 7;
    CHECK(nn_dist_recv(ctx, t, -1, 0, &from) == NN_ERR_RUNTIME && from == 7);
    CHECK(!nn_dist_isend(ctx, t, 1, 0) && strstr(nn_ctx_error(ctx), "isend: no process group"));
    CHECK(!nn_dist_irecv(ctx, t, 1, 0) && strstr(nn_ctx_error(ctx), "irecv: no process group"));
    CHECK(nn_dist_flat_gather(ctx, t, t) == NN_ERR_RUNTIME);
    CHECK(!nn_dist_ddp_new(ctx, &t, 1, NULL, 0, 0));
    CHECK(strstr(nn_ctx_error(ctx), "DistributedDataParallel: no process group"));
    int first, bad;
    CHECK(nn_dist_check(ctx, &t, 1, &first, &bad) == NN_ERR_RUNTIME && first == -1);
    nn_error err = {0};
    CHECK(nn_dist_destroy(&err) == NN_OK); /* nothing to leave */
    CHECK(strcmp(nn_dist_op_name(NN_DIST_PRODUCT), "PRODUCT") == 0);
    nn_tensor_release(t);
    nn_ctx_free(ctx);
}

/* FSDP's flat parameter: its bytes go back to the allocator and come back
 * while a view of it stays alive. */
NN_TEST(dist_flat_bytes_come_and_go) {
    nn_ctx *ctx = nn_ctx_new(0);
    size_t before = nn_mem_get_stats().in_use;
    nn_tensor *flat = nn_dist_flat_new(ctx, NN_FLOAT32, 1 << 16);
    CHECK(flat && nn_dist_flat_is_allocated(flat));
    size_t with = nn_mem_get_stats().in_use;
    CHECK(with >= before + ((size_t)1 << 18));
    nn_tensor *view = nn_view(ctx, flat, 2, (int64_t[]){256, 256});
    CHECK(view && view->storage == flat->storage);
    nn_dist_flat_free(flat);
    CHECK(!nn_dist_flat_is_allocated(flat) && !nn_dist_flat_is_allocated(view));
    CHECK(nn_mem_get_stats().in_use + ((size_t)1 << 18) <= with + 4096); /* + the view's header */
    nn_dist_flat_free(flat);                                             /* twice is harmless */
    CHECK(nn_dist_flat_alloc(ctx, flat) == NN_OK && nn_dist_flat_is_allocated(view));
    float *p = nn_tensor_data(view);
    p[0] = 1.5f;
    CHECK(((float *)nn_tensor_data(flat))[0] == 1.5f);
    nn_tensor *plain = nn_zeros(ctx, NN_FLOAT32, 1, (int64_t[]){3});
    CHECK(!nn_dist_flat_is_allocated(plain));
    CHECK(nn_dist_flat_alloc(ctx, plain) == NN_ERR_VALUE);
    nn_dist_flat_free(plain); /* not a flat parameter: left alone */
    CHECK(((float *)nn_tensor_data(plain))[2] == 0.0f);
    nn_tensor_release(view);
    nn_tensor_release(plain);
    nn_dist_flat_free(flat); /* released while dropped: nothing to free twice */
    nn_tensor_release(flat);
    CHECK(nn_mem_get_stats().in_use == before);
    nn_ctx_free(ctx);
}
