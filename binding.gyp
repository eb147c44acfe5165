{
  "targets": [
    {
      "target_name": "wasm_soak",
      "sources": [
        "<!@(node scripts/addon-sources.js)"
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
        "-O2",
        "-fvisibility=hidden",
        "-flto=auto"
      ],
      "ldflags": [
        "-O2",
        "-flto=auto"
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
