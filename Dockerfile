# The skdpack image the Kubernetes and AWS Batch recipes (examples/k8s) run.
#
#   docker build -t skdpack:0.1.0 .
#
# Two stages: the Swift image builds and installs skdpack with `make install` (the release binary with the
# Swift runtime linked in, its man page and completions); a slim Debian image with libxml2 (for XML
# reports) runs it as a non-root user. The tests run the same `make install`.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libxml2-dev libexpat1-dev pkg-config make git \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN make install PREFIX=/opt/skdpack

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libxml2 libstdc++6 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --create-home skdpack
COPY --from=build /opt/skdpack/ /usr/local/
USER skdpack
WORKDIR /work
ENTRYPOINT ["skdpack"]
CMD ["--help"]
