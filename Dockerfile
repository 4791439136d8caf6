# syntax=docker/dockerfile:1
# Build: wheels and compiled translations; runtime: slim Python with WeasyPrint's libraries.
FROM python:3.11-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml ./
COPY clubsite clubsite
COPY tournaments tournaments
COPY scoring scoring
COPY rules rules
RUN pip wheel --wheel-dir /wheels .
COPY . .
RUN python -m venv /venv && /venv/bin/pip install --no-index --find-links /wheels lappu \
 && /venv/bin/python manage.py compilemessages --ignore=.venv \
 && DEBUG=0 SECRET_KEY=build-only ALLOWED_HOSTS=build /venv/bin/python manage.py collectstatic --noinput

FROM python:3.11-slim-bookworm AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/venv/bin:$PATH DEBUG=0
RUN apt-get update && apt-get install -y --no-install-recommends \
      libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --uid 10001 lappu
COPY --from=build /venv /venv
COPY --from=build --chown=lappu /src /app
WORKDIR /app
USER lappu
EXPOSE 8000
# --timeout 120: a big event's standings PDF is made in the request that asks for it first
# (14-22 s for 1000 players); gunicorn's default 30 s would leave little to spare.
CMD ["gunicorn", "clubsite.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--timeout", "120", "--access-logfile", "-"]
