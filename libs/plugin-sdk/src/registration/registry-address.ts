/** The gateway's registry socket as a grpc-js target: a path, `unix:///path` or `unix:path`. */
export function registryTarget(socket: string): string {
  if (socket.startsWith('unix:')) return socket;
  if (!socket.startsWith('/')) {
    throw new Error(
      `registry socket ${JSON.stringify(socket)} must be an absolute path (the gateway's registry.socket) or unix:///path`,
    );
  }
  return `unix://${socket}`;
}
