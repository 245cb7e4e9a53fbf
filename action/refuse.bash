# Sourced by the steps of action.yml (one level up) that can refuse their
# inputs or the runner. Kept to bash 3.2, macOS's bash, so that a step can
# still say why it refuses where the rest of the action cannot run.
#
# A mistake in the inputs is the user's, like proctor's usage errors:
# verdict `error`, exit code 2, the reason as an annotation in the log and,
# through "$work/stderr", in the job summary. The calling step sets `work`
# (its scratch folder) and `refusal_status`: 0 where the steps after it still
# run, non-zero where they must not (there is no proctor to run).
refuse() {
  # The workflow-command escaping: a message cannot end the annotation early
  # or smuggle a second workflow command onto a line of its own.
  local annotation=${1//'%'/%25}
  annotation=${annotation//$'\r'/%0D}
  echo "::error title=proctor::${annotation//$'\n'/%0A}"
  printf 'error: %s\n' "$1" > "$work/stderr"
  printf 'verdict=error\nexit-code=2\n' >> "$GITHUB_OUTPUT"
  exit "$refusal_status"
}
