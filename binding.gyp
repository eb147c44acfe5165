{
  "targets": [
    {
      "target_name": "wasm_soak",
      "sources": [
        "addon/napi/binding.c",
        "addon/napi/constants.c",
        "addon/napi/live.c",
        "addon/napi/log.c",
        "addon/napi/native_engine.c",
        "addon/napi/napi_helpers.c",
        "addon/napi/plot.c",
        "addon/napi/runner.c",
        "addon/napi/sites.c",
        "addon/napi/summary.c",
        "addon/napi/v8_engine.c",
        "addon/napi/verdict.c",
        "addon/core/ws_clock.c",
        "addon/core/ws_control.c",
        "addon/core/ws_crc32c.c",
        "addon/core/ws_error.c",
        "addon/core/ws_live.c",
        "addon/core/ws_log.c",
        "addon/core/ws_loop.c",
        "addon/core/ws_native.c",
        "addon/core/ws_ring.c",
        "addon/core/ws_rng.c",
        "addon/core/ws_rss.c",
        "addon/core/ws_run.c",
        "addon/core/ws_sites.c",
        "addon/core/ws_thin.c",
        "addon/core/census/ws_blocks.c",
        "addon/core/census/ws_bump.c",
        "addon/core/census/ws_census.c",
        "addon/core/census/ws_dlmalloc.c",
        "addon/core/census/ws_emmalloc.c",
        "addon/core/census/ws_tlsf.c",
        "addon/core/census/ws_wee.c",
        "addon/core/plot/ws_decimate.c",
        "addon/core/stats/ws_bootstrap.c",
        "addon/core/stats/ws_classify.c",
        "addon/core/stats/ws_compare.c",
        "addon/core/stats/ws_drift.c",
        "addon/core/stats/ws_judge.c",
        "addon/core/stats/ws_memtrend.c",
        "addon/core/stats/ws_notes.c",
        "addon/core/stats/ws_quantile.c",
        "addon/core/stats/ws_student.c",
        "addon/core/stats/ws_summary.c",
        "addon/core/stats/ws_trend.c",
        "addon/core/stats/ws_verdict.c",
        "addon/core/stats/ws_warmup.c",
        "addon/core/stats/ws_windows.c"
      ],
      "include_dirs": [
        "addon/include",
        "addon/core"
      ],
      "cflags_c": [
        "-std=c11",
        "-D_POSIX_C_SOURCE=200809L",
        "-Wall",
        "-Wextra",
        "-O2"
      ],
      "libraries": [
        "-lffi",
        "-ldl"
      ],
      "defines": [
        "NAPI_VERSION=8"
      ]
    }
  ]
}
