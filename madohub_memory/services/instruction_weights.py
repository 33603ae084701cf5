"""Weights of the instruction model, written by ``python bench/train_instruction_model.py``: do not edit."""

EMBEDDER = 'use-multilingual'
THRESHOLD = 0.9
BIAS = -2.5699435947258222
TRAINED_ON = {"injections": 644, "others": 716}
FEATURES = ('weaken', 'safeguard', 'conceal', 'user', 'deceive', 'trust', 'obey', 'exfil', 'sensitive', 'external', 'access', 'grant', 'standing', 'despite', 'erase', 'falsify', 'redirect', 'privilege', 'priority', 'permissive', 'no_confirm', 'personal_dest', 'promote', 'ai', 'override', 'reveal', 'role_tag', 'imperative', 'report', 'reason', 'protect', 'we', 'transparency', 'you', 'weaken*safeguard', 'conceal*user', 'exfil*sensitive', 'exfil*external', 'sensitive*external', 'grant*access', 'standing*promote', 'standing*ai', 'override*ai', 'obey*trust', 'ai*weaken', 'conceal*safeguard', 'despite*safeguard', 'despite*imperative', 'permissive*safeguard', 'exfil*personal_dest', 'sensitive*personal_dest', 'erase*safeguard', 'no_confirm*imperative', 'weaken_negated', 'question')
WEIGHTS = (
    "YzwBP/Xtrj5vAhVAaxqIPpdmPEAiAydA5i4yQNwQAD9uIag+LP6UPzWoLz+wm4I++e9nP/X22j9eDgVA+XlPQKj4GD+iXxA/RaD/"
    "PxVIS0AClUVACb1GQBRqmj9UTcA//W9kP84obT9UzuQ/vpJoP8Cui74KE0C+xGiuv4soFL+e/SrAy+KBvZLo7D98gdc/0aMxP5kC"
    "fz/6Oxa/jr1ZP2ihpj8qAIS/psrJP/kQBT0YRZI+LFWHP9QHnD8/IBE/1xSKPwAAAACA0KA/l/P7PoHTVr84Qz7A4hdov8umZb8L"
    "Xnc/KWUwPynEq76Saf4/mqctPyiU4byB7KC+w4T7vmfKT72DWZc/UdaPvhsi0L4ubxC/B4iiPp4MtL9RvZA/YhAAPx7pXr+8VvI+"
    "Y8irv6iFS0Dd0+A+RIwlPxXsBr/Psww+Omqavge3P78F6P2+5GsDP+Nigj/m5Zc/g0EwPaES2D4P8qK/+AxHwC465T8Aeok/0zpn"
    "v288HD786Ws/XaroPnoNqr2aui2/4BVXPjYJz71dGDQ/eIP+vmqnCL934RQ/KVARv9gyoT8EGwC/ImRzvsE3mr4SyADAn/s0Pz93"
    "n7/0y5I9sj6+P98ZJz6zoAZA0wCpPBlfqL6aQK6+gRpxPha/vr6R4j6/lHaNvpJoK7/IV3fAZj8xv0M+bL/FUSs/xc4BP2tll73J"
    "LhQ/p0OPPrhAlr6RfBbAoR/pvrv7w75DSg4/aJRBv9EOvT9gkhG/fHwAP3uvJD/B676/ziU+vsN/zrzltoW/y64EP4uLhz9GdN0+"
    "E6zkPUkg7D5bXC+/2UfxPvpZo76R/lm+uVj3vcRXXj9C5jC/2dBVvxj/mT0xFYW+edZhP8rkyr3ZHie/MmL3PCeLsT7CWVe/MVdk"
    "v12qjj4X1Cy/sU75Ptg/V74VpIW+Q2nRPY82f76xbWy+iP1YP/LTKT/ZZgy/CsWaPx4T5ju5fe6/E94wv2mGST5msbQ/E2TjP4Y5"
    "Gz4mYpE+WRQmP6QF577gIvm+s+UdPq8ATT6HYIO+Q2b6PXsSbz8HdFu/CtWiPSTzlr8L06s9YZRtP7A5N7+gZMk7u0soPvBFub5H"
    "StG6+NvDPaVAXr5RI0k/8tWJPyjkRj5Z15a+GALkvqGAeLv0t7o/ql41vxlBHb96xDQ+nt8tvjP2yD9K4C4/nz41vvrVmz1k3na9"
    "WhAlP3zMc7/Q4vS9RtFAv/xpXb6KSNU+WUSevWCH6L2Df5C+w+T7P1EMML/MvEK/32xcP5H/n743hAi/L+PVv6GjiD5EEQS/xFWM"
    "P0NWJb9OUAa+bA0rPgRgAz/o2rm/HOz1PdTVbr5gnr0/kLOvPwsbOb0jl/S96agCwH0kiL87DIq/TKmDv2rogD+AuBK/ULhnvUIv"
    "IT/mIM6+ndONvngmMj+T5Gu/XgevPzMmTD+kLcQ9L5Jwvqf6TD7LsPs/fILBvvh2kz7eXYk9QAZePuW0v76aEnw+apsAQNX0Bb4l"
    "Zqk8xl3OPuvFLT/nD4y/nhEXv4gluT57la+/tcBgvsAtHj82tAu/cwYxPnbeGT/zhFY/ycnVvu5Zfj74tgA/jtUJP7MLl71cybm/"
    "oXOPPmagBUCByi4/bqHiP9ZSjT+dgoE+w4JLPyNxsD9xHUy+rwJdP5bmiD4hQHw/ooUIv60H275kt12/nle6P5aanj4XcZw+xLj9"
    "PuYdmD6p3oU/Y5EOvzd2ND9mU2W+Xd6fv8awAj/VhFo90l8/vntKE795cvA9Qxg/v4RD3j01q0e/oKkSQNff6j6DgLq9iBFMv5AF"
    "6z7vSIS/drRLPrJ+s78lP9q+qaMaP/WTMT8C0n6/eRWgvlyomT5Vhaq/WHkcv6ZdTzwsDxdAtOGdPhxdcj4UlAi+s1tdPlAkEb8n"
    "tSK/Silmv5pVnj8F+AY/+jnXPmwgPL4KFiq/35PVP69L2L6VePG+mK1Qv14cpz7WMDO/0KG3vxFyrr8xN4q/ccxhPmgqP79B5Ow+"
    "rZqbvhjeCT/nqa++Zu3NP4Pewr8nn7I+DPKDvWnasj+2vV++aILOve0GtTwcm+Y9ffqTP+9IDr7+7wRASBzMv64SBUCyV8Q/oU7I"
    "v1vdDL+nLV6+zI3SPmYcWb+atlA6geElv0XO1T2lMuU/lZldvYDoZ78eYNs/uE5LPdI9E79b/jK/c6X0PhYDBb9HdCQ+LPC/v+iY"
    "/L83FIy9vE8XPsjtcb+CHi+/sU5OPor0jT90rQY+j77OP2yRNz19lXE/IB+Iv8bYy77j5kY/rT2yv4l3A8CS77W+aLQpv3xWjr+Q"
    "2r++ZD4cP0MVjj8lTLc/MOITP+kvBL+x8aU+JrJMv9suIz9De+Y+4x4NvbfEbz+FQABA2qwBwJawor9yoyY9rY+CvuYlWr877bc8"
    "n6eJPly5lT+Y4hO+BJQyvyLBfL9kiI8/m50xPNqLCj92yYE/huk8vyi99j5gAYS+l64bvwr/2j47NH08E63Pvl93hTxnDfK+vaRN"
    "P/BetL9LzxbAHBo3vm78mr7PWLc+8MsBP4SgxL5E3uG/TUE3v4dA97+nM6i/oyihPtrB8r+y+189KIW0vARsuT0QuqI+f+DJPpXc"
    "yLwL1GM/p37nvkDATL8f3iQ/KbO4v8ygmj96B++9+1/LvlOWAL++o5U/E/vwP65DNj6dxZc/ZbKfP5S59b+SV/I+faNKOz+1y753"
    "IA0/p8gWvwbve7+CqRq/oIQgvynzTr8XImW/vj+RvvIZmr7WjwM/Ak/JvovbPb8dH4o/rU6sv7gcIT9quHC//gdov/jGir6mBZ6+"
    "fuy/voF0or+bHiU8M8+WPtSuqLz/Zps/dyEJv+XarL5eQuq9OPZAvyH4o78StYy/MZ3iPtfD2j73Ali9RRSwvrl6kr2lKsq/MUK9"
    "vp/IjT+gfOa+bw90vQzUSD9doKi/ROovv5caHr8cb5g+Pgk8PxeWrj+zHMS+73DDPmN82b8O8CDAOpLivsHP5D6XWbW8dxyDP52I"
    "cz+2VVI+I6BGvzmLdb8mYKo/"
)
