# SPDX-License-Identifier: MIT
# A TCP echo over localhost (bench/record/sbuf.sh): a server thread sends
# back in upper case what a client sends, 2,000 messages of 8 to 500
# bytes; the client polls its selector without waiting before each recv,
# as event loops do. Prints the bytes that came back.
import selectors
import socket
import threading

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen()


def serve():
    conn, _ = srv.accept()
    while True:
        data = conn.recv(65536)
        if not data:
            break
        conn.sendall(data.upper())
    conn.close()


server = threading.Thread(target=serve)
server.start()
client = socket.create_connection(srv.getsockname())
sel = selectors.DefaultSelector()
sel.register(client, selectors.EVENT_READ)
total = 0
for i in range(2000):
    msg = (b"hello %d " % i) * (1 + i % 50)
    client.sendall(msg)
    got = b""
    while len(got) < len(msg):
        sel.select(0)
        got += client.recv(65536)
    assert got == msg.upper()
    total += len(got)
client.close()
server.join()
print(total)
