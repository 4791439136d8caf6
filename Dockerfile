# syntax=docker/dockerfile:1
# Build: the locked dependencies in a venv, compiled translations, collected static files;
# runtime: slim Python with WeasyPrint's libraries, the venv and the site's source.
# The base image is pinned by version; bump it (and re-run `make lock`) deliberately.
FROM python:3.11.14-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
# The dependencies first, exactly as locked (versions and hashes): a change to the site's
# code does not reinstall them.
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv /venv \
 && /venv/bin/pip install --no-cache-dir --require-hashes --no-deps -r /tmp/requirements.lock
# The site runs from its source in /app, as a checkout does (manage.py, gunicorn and Celery
# import it from the working directory): the whole build context, less .dockerignore, so no
# list of packages here can fall behind the project's.
WORKDIR /src
COPY . .
RUN /venv/bin/python manage.py compilemessages --ignore=.venv \
 && DEBUG=0 SECRET_KEY=build-only ALLOWED_HOSTS=build SITE_URL=https://build \
    /venv/bin/python manage.py collectstatic --noinput

FROM python:3.11.14-slim-bookworm AS runtime
# MEDIA_ROOT holds the print jobs' PDFs: a volume shared by the web and worker containers
# (compose.yaml), made here so the volume starts out owned by the site's user.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/venv/bin:$PATH DEBUG=0 \
    MEDIA_ROOT=/data/media
RUN apt-get update && apt-get install -y --no-install-recommends \
      libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --uid 10001 lappu \
 && mkdir -p /data/media && chown lappu:lappu /data/media
COPY --from=build /venv /venv
COPY --from=build --chown=lappu /src /app
WORKDIR /app
USER lappu
EXPOSE 8000
# /healthz answers before host checks and the HTTPS redirect (core/health.py); the slim
# image has no curl, so Python asks.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('PORT') or 8000), timeout=4).status != 200)"]
# The address is clubsite/gunicorn.py's: 0.0.0.0 and $PORT, else 8000.
# --timeout 120: a big event's standings PDF is made in the request that asks for it first
# (14-22 s for 1000 players); gunicorn's default 30 s would leave little to spare.
CMD ["gunicorn", "clubsite.wsgi:application", "--config", "python:clubsite.gunicorn", "--workers", "3", "--timeout", "120", "--access-logfile", "-"]
