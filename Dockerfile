FROM python:3.11-slim
WORKDIR /app
ENV HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
COPY pyproject.toml README.md ./
COPY hippograph ./hippograph
RUN pip install --no-cache-dir '.[gds]'
EXPOSE 8000
CMD ["hippograph", "serve", "--host", "0.0.0.0", "--port", "8000"]
