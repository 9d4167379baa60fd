/* The anchor of the all-reduce benchmark: plain MPI_Allreduce of a float32
 * buffer in place, as a C program written against mpi.h would do it.
 * Built by bench/bench_dist.py with mpicc (not part of the nndb build).
 *   mpirun -np 2 mpi_allreduce MIB ITERS
 * Rank 0 prints "RESULT ms=<median ms per all-reduce>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long mib = argc > 1 ? atol(argv[1]) : 64;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    int n = (int)(mib * 1024 * 1024 / 4);
    float *buf = malloc(sizeof(float) * (size_t)n);
    double *t = malloc(sizeof(double) * (size_t)iters);
    for (int i = 0; i < n; i++) buf[i] = (float)(i % 7);
    for (int k = -2; k < iters; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        if (k >= 0) t[k] = MPI_Wtime() - t0;
    }
    qsort(t, (size_t)iters, sizeof *t, cmp);
    if (rank == 0) printf("RESULT ms=%.4f\n", 1e3 * t[iters / 2]);
    free(buf);
    free(t);
    MPI_Finalize();
    return 0;
}
