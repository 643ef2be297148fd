"""A forged reply on the worker's socket that lists one 60 MB array sixteen times (decoding each
listing once took the grader to 2.1 GB). The grader decodes a blob at most once: the reply is
refused as invalid and kernel-stride loses its conv_patch_embed points."""
import os
import socket
import sys

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def conv_patch_embed(image, K, b, stride):
    frame = sys._getframe()
    while frame is not None and not {"seq", "index"} <= frame.f_locals.keys():
        frame = frame.f_back  # the worker's answer loop knows the request's number
    from grader.worker import channel

    conn = channel.Connection(socket.socket(fileno=os.dup(3)), send=channel.REPLY, receive=channel.REQUEST)
    listing = {"__ndarray__": [0, "<f8", [60 * 2**17]]}
    reply = {"seq": frame.f_locals["seq"], "index": frame.f_locals["index"], "status": "ok",
             "value": [listing] * 16, "stdout": "", "seconds": 0.0}
    conn.send(reply, [bytes(60 * 2**20)])
    return 0
