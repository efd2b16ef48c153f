# GraphiQL's files, from the npm registry at build time (web/package-lock.json's exact versions);
# the test driver (devDependencies) is left out.
FROM node:20-slim AS web
WORKDIR /web
COPY web/package.json web/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM python:3.11-slim
WORKDIR /app
ENV HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
COPY pyproject.toml README.md ./
COPY hippograph ./hippograph
RUN pip install --no-cache-dir '.[gds]'
COPY web/pages ./web/pages
COPY --from=web /web/node_modules ./web/node_modules
# HIPPOGRAPH_GRAPHIQL=0 turns the page off.
ENV HIPPOGRAPH_WEB_DIR=/app/web
# Export the embedding model to ONNX once, at build time (checked against PyTorch), so a
# container starts without exporting it again.
ENV HIPPOGRAPH_EMBEDDING_CACHE_DIR=/opt/hippograph/onnx
RUN python -c "from hippograph.graph.models.embedder import Embedder; from hippograph.settings import Settings; print(Embedder.from_settings(Settings.from_env()).load().backend)"
EXPOSE 8000
CMD ["hippograph", "serve", "--host", "0.0.0.0", "--port", "8000"]
