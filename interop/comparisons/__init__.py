"""The comparisons interop/fidelity.py runs, one module each.

runtime   the targets, proctor and the drivers, the records a run leaves
outcome   what a driver's lines say the runtime did
wire      proctor's requests re-sent by the runtime's own code, and verify
faults    proctor's verdict per mock fault against what the runtime did
cases     the examples' cases through the runtime to the real plugin
states    a workflow state's prompt as PromptKit renders it each round
tools     a prompt's pack tools as PromptKit's OpenAI provider sends them
plan      every unit of work of a run, in order, and the slices of --shard K/N
verdict   the judging of a run, a slice's report, and the merge of the slices
"""
