"""The models the service talks to: the embedding model (``embedder``, served on ONNX Runtime by
``onnx_encoder`` where it can) and the client for an OpenAI-compatible chat endpoint (``llm``).

May import only ``models``, ``graph.errors``, ``graph.model`` and ``hippograph.settings``.
"""
