#include "lang_builtins.h"

const lang_builtin_def *const lang_builtin_families[] = {
    lang_core_builtins,
    lang_tensor_builtins,
    lang_plot_builtins,
    lang_nn_builtins,
    lang_optim_builtins,
    lang_data_builtins,
    lang_io_builtins,
    lang_probe_builtins,
    lang_debug_builtins,
    lang_generator_builtins,
    lang_instruments_builtins,
    lang_class_builtins,
    lang_std_builtins,
    lang_set_builtins,
    lang_dist_builtins,
    lang_tensor_ops_builtins,
    NULL,
};
