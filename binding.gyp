{
  "targets": [
    {
      "target_name": "wasm_soak",
      "sources": ["<!@(node -p \"require('fs').readdirSync('addon').filter(f=>f.endsWith('.c')).map(f=>'addon/'+f).join(' ')\")"],
      "cflags_c": ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-O2"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
