# The server image (h-server) from what the host built, for machines where nothing can be installed
# inside a build (no registry, or one whose TLS the build does not trust): FROM the local base, COPY
# only. build-images.sh stages the context: dist/ (scripts/build.mjs prisma server), node_modules
# without the lockfile's dev packages, prisma/, the run and migrate scripts, the entrypoint. Same
# layout, user, roles and health check as infra/server/Dockerfile (the registry route).
ARG BASE
FROM ${BASE}
WORKDIR /app
ENV NODE_ENV=production H_DATA_DIR=/data H_HOST=0.0.0.0
COPY --chown=0:0 node_modules ./node_modules
COPY --chown=0:0 app ./
COPY entrypoint.sh /usr/local/bin/h-entrypoint
USER 0:0
RUN chown 1000:1000 /data && chmod +x /usr/local/bin/h-entrypoint
USER 1000:1000
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "if (process.env.H_ROLE !== 'api') process.exit(0); fetch('http://127.0.0.1:' + (process.env.H_PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["h-entrypoint"]
CMD ["api"]
