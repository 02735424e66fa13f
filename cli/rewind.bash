# SPDX-License-Identifier: MIT
# bash completion for rewind. Commands and options are read from rewind's
# own --help, so this file never lists them; TRACE arguments complete to the
# names in the trace directory as well as to files.
_rewind() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]:-} i
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$(rewind --help 2>/dev/null |
      sed -n 's/^  \([a-z]*\) .*/\1/p') --help --version" -- "$cur"))
    return
  fi
  for ((i = 2; i < COMP_CWORD; i++)); do
    [ "${COMP_WORDS[i]}" = "--" ] && {
      [ "$cmd" = record ] && COMPREPLY=($(compgen -c -- "$cur"))
      return
    }
  done
  if [ "$cmd" = record ] && [[ ${COMP_WORDS[COMP_CWORD - 1]} == @(-p|--pid) ]]
  then
    COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"))
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(rewind "$cmd" --help 2>/dev/null |
      grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
    return
  fi
  case $cmd in
    record) COMPREPLY=($(compgen -c -- "$cur")) ;;
    *)
      local dir=${REWIND_TRACE_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/rewind}
      COMPREPLY=($(compgen -f -- "$cur"))
      [ -d "$dir" ] && COMPREPLY+=($(cd "$dir" && compgen -G "$cur*.rwd"))
      ;;
  esac
}
complete -o filenames -F _rewind rewind
