"""Agent runs and the experience distilled from them: ``model`` (records, also the client's),
``bounds`` (what a run may hold: limits, truncation, the privacy filter), ``record`` (start, step,
tool call, finish, written as the agent works), ``read`` (a run whole, lists, similar runs, tool
statistics, closing abandoned runs), ``distil`` (a finished run's lesson: offline rules or the
configured LLM) and ``experience`` (the lesson stored as memories, reinforced or weakened by
later runs). Uses the write path and feedback; nothing below imports it."""
