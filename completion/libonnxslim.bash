# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# bash completion for libonnxslim (completion/libonnxslim.bash), installed by
# `make install` as PREFIX/share/bash-completion/completions/libonnxslim.
# Completes the commands, each command's options, the values of options
# that take a word from a list, and .onnx files (and directories) for the
# models. Every option of `libonnxslim COMMAND --help` must be listed here:
# test step 63-cli-docs (test/check_cli_docs.py) checks it by calling
# _libonnxslim. Needs nothing from the bash-completion package.

_libonnxslim_options() { # COMMAND: its options, one word each
  case $1 in
    info | fingerprint) echo "--json" ;;
    check) echo "--json --skip --list-checks --verify-checksums" ;;
    convert)
      echo "--gather-to --to --select --exclude --min-size --policy --round --force --saturate" \
        "--flush-subnormals --block-size --format --scales --scale-method --clip-percentile --allow-unpacked --asymmetric --zero-point --report --external-data --threshold --align --location" \
        "--per-tensor --checksum --force-shape-inputs --constants --also-single-file" \
        "--allow-large --toposort --simplify --verify --no-verify --json"
      ;;
    split)
      echo "--threshold --align --location --per-tensor --checksum --force-shape-inputs" \
        "--constants --allow-large --toposort --report --json"
      ;;
    merge) echo "--allow-large --toposort --report --json" ;;
    diff) echo "--storage --json" ;;
    simplify)
      echo "--passes --fold-max-bytes --report --external-data --threshold --align --location" \
        "--per-tensor --allow-large --verify --no-verify --json"
      ;;
    infer) echo "--strict --no-data-prop --report --verify --no-verify --json" ;;
  esac
  echo "--help"
}

_libonnxslim_files() { # WORD: .onnx files and directories starting with WORD
  local IFS=$'\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY+=($(compgen -d -- "$1") $(compgen -f -X '!*.onnx' -- "$1"))
}

_libonnxslim() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i
  COMPREPLY=()
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # "--to=b": bash splits the word at '=' (COMP_WORDBREAKS)
  if [[ $cur == = ]]; then
    cur= prev=${COMP_WORDS[COMP_CWORD - 1]}
  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi
  local only_args=
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      --) [[ -n $cmd ]] && only_args=1 ;;
      -*) ;;
      *) [[ -z $cmd ]] && cmd=${COMP_WORDS[i]} ;;
    esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "info convert split merge fingerprint check diff simplify infer --help -h --version -q --quiet" -- "$cur"))
    return
  fi
  [[ -z $only_args ]] && case $prev in
    --gather-to) COMPREPLY=($(compgen -W "bf16 fp16 int8 int4" -- "$cur")); return ;;
    --to) COMPREPLY=($(compgen -W "bf16 fp16 fp32 fp64 int8 int4" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "standard ort" -- "$cur")); return ;;
    --scales) COMPREPLY=($(compgen -W "fp32 fp16" -- "$cur")); return ;;
    --scale-method) COMPREPLY=($(compgen -W "mse absmax" -- "$cur")); return ;;
    --zero-point) COMPREPLY=($(compgen -W "int float" -- "$cur")); return ;;
    --policy) COMPREPLY=($(compgen -W "cast-after-gather cast-before storage-only" -- "$cur")); return ;;
    --round) COMPREPLY=($(compgen -W "nearest truncate" -- "$cur")); return ;;
    --passes) COMPREPLY=($(compgen -W "noop cse fold dead all noop,cse,dead fold,dead" -- "$cur")); return ;;
    --skip)
      COMPREPLY=($(compgen -W "undefined_input duplicate_output order tensor_size opset output_not_produced type empty_name unknown_op arity attr_missing attr_unknown attr_type type_constraint untyped_io checksum function" -- "$cur"))
      return
      ;;
    --also-single-file) _libonnxslim_files "$cur"; return ;;
    --location)
      local IFS=$'\n'
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      return
      ;;
    --select | --exclude | --min-size | --threshold | --align | --block-size | --clip-percentile) return ;; # a free value
  esac
  if [[ $cur == -* && -z $only_args ]]; then
    COMPREPLY=($(compgen -W "$(_libonnxslim_options "$cmd")" -- "$cur"))
  else
    _libonnxslim_files "$cur"
  fi
}

complete -F _libonnxslim libonnxslim
