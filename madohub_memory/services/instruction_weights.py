"""Weights of the instruction model, written by ``python bench/train_instruction_model.py``: do not edit."""

EMBEDDER = 'use-multilingual'
THRESHOLD = 0.9
BIAS = -2.507040800089127
TRAINED_ON = {"injections": 584, "others": 616}
FEATURES = ('weaken', 'safeguard', 'conceal', 'user', 'deceive', 'trust', 'obey', 'exfil', 'sensitive', 'external', 'access', 'grant', 'standing', 'despite', 'promote', 'ai', 'override', 'reveal', 'role_tag', 'imperative', 'report', 'reason', 'protect', 'we', 'transparency', 'you', 'weaken*safeguard', 'conceal*user', 'exfil*sensitive', 'exfil*external', 'sensitive*external', 'grant*access', 'standing*promote', 'standing*ai', 'override*ai', 'obey*trust', 'ai*weaken', 'conceal*safeguard', 'despite*safeguard', 'despite*imperative', 'weaken_negated', 'question')
WEIGHTS = (
    "e64+PxUTtj50exNACcnRPuwtOUBLUC5A5o8xQEHeUT9QeBE+QOx7P8ZONT+6Wp4+SiqKP/e1DUCPyKk/k4zlP6zJkz/2PF0/Id3V"
    "P9wYgj+wq0K++PuYvi3nnb8yIz2/ekgdwGQpLr5SbNU/vh/mPzkZTz7MvE0/H9GRvVr3mz+OOZo/yiZxv9BJtj8BovA82a6uPn8p"
    "hj8Gy5U/WTH6PonILsD89IW/H9B+v0Xr5D5hdik/5ob7vd/PDEBUtB0/A7KYvjOgkb4LG7W+983vvvEegD8Hidu9AFocvnRuT78J"
    "RF8+8r+nv8P3nD9eBhc/UYZ1v3Dy4D1voKe/YgtPQDxoQj80Acw+ie24vqKLMz7Fw6y+3TyYvwMvMr9hP64+aHyPP3FFpj9xNby+"
    "y3zQPgArqr8msT3AERDAPy8ogD+Z2DO/jwT1PRuLhD93l6M+VYCpPj95Pb8E6h4+jSRdui5UFT9wU2I++083v+1D4T5c7+q+GE6C"
    "P1M6i7/m2CO/blKBvlvb/r8BP9k+dfW5v91/hj1JhXc/4ZTKPkpr6z8ru+O8P43mvW5+Vrw/rL4+EILRvV3Utb6kB9q+Qfg+vy43"
    "f8CBgRm/6oaQv7X5QD9CquM+Kna/vUhuMj+W7wQ/QKRBvjuEGMCc/ge/Qs9ev/HLCT+A5/C+NmKzP/vEA79R2xs/i9wlP4kEm7/v"
    "86C+gMeqvayQlb+EA1I/Fa2UP+Uw3z5Tiqe989QbPrC5qL1StiQ/dR+Svst5sD7G7++9b+uVP+dtC78Jzy6/RZkqPRr6yb7+XZ4/"
    "37H3vaobXr8i9L6+eFbbvRQTg7/rnZG/BnUbPn70H79ftvg+dygRvyjO8r2U3LG+iO5nvfyoob7Aigc/t6DxPinBGL8pEJk/Et6G"
    "PtU5wr+zNz6/iGhSPoZJoD9vvvU/4x9APdW8sD7B9i4/R0y4vQUfJr9OhVQ9ceMaPLROUL6PaAu+ENGjPzYrQb+9X+q9Zdwvv9zC"
    "ST6e3ZU/vO9mvy6bRLtlVDE+61eTvidgLz5uyaS9cS87vzT2Zz+x45c/BgmyPsXztb7jqqC9U8yXvmdI5j+CVW+/7zKHvgbF5z5V"
    "MSS/a0OVP4vtiT+qIVG+y2ScvtP0+TzWciA/yEecv1/sEr5UQTa/4L8ev93NoT05pWm+dD7Cvahh0b3bLwJAhW4IvrI+Mb/eElo/"
    "C7AwvnRQC7/bDeO/SMgsPgB4L788aDU/mCbdvtgmqr18Nhm+n94RP5nP579Psg49JOGZPka1sz/xlcQ/OoiTPqzxsj0htv+/sl+P"
    "v4gVLr+VN4W/vEB7P/XuI768T50+2VwpP1CLlr7x3jy/K908P19Nc7+tsM4/WUdqPyps2j3TqAm/TFX6vhEU+T9d12O+z8gSP/lP"
    "Br6MdzW+UYfgvhqFQj46mNQ/E9/kvmOSZr3aZ529RvtOP7eogr8nGzC/TgU2P4ZRor/VfJi+XxjqPkXUV79QvRK+eoALPwvLNT/6"
    "RAe/9xLGPkcXIz9VcoY/hGXsvdFuob8BULU+tTgFQJQQnD/iS/U/iFucPzJe7jzE1RE/8mu1Pw83+74LwWU/af9pPgpsHD8cZ6y+"
    "zKhXv+ARhL+XR4E//84mP3Xw+b5++LM+ZtaIPvZ8LD+75xG/aVZPP5e1l71kbJa/mhnePoax/b3ReCO/2vhDvmqB5zxzZ36/rNpF"
    "Pr8GGL9JoClA6w0ZPnoDcr5eiw+/pQeqPd0um7/4CZY+Ohm/vxZgiL1umvM+lXwaP/4Yjb+DJLW9Woz6PjqDzL90akC/y5NKvThF"
    "GUBzLfM935REP4EPLb1I2yY+Qk2cv/GQc78ldYe/bQunP0os+j5P9/s+MiYLPRuxeL8Zr7A/0Kb+vpJS774UgCi/giEUPkucib9x"
    "97+/m3W4v9JNX79dSgU/L0hNv63fgD8ZIOu+67bSPsgIfL/Byeg/nPm7v7ckUT4Bkr48XfLHPwMXgL6BSj4+I2rDvDWlDj0J1Y4/"
    "IZNUvlAxGkCZ8+S/cr3nP98t2D9EB9+/Py9dvz7/nb5EhzI/HlRwv2yJU75aQN++ifOkPu6Zyj/YADC+jkNZv3363z801Pc7U2sN"
    "v/0OW7+fok8/mL2cvUgh/T2DtdW/6ADav/Lf173IPgU/pDNdv7vdVL8aoBo9C5xXP7jj+z6H6Mo/iU3sPd/qWD/YzlW/EWYxv42O"
    "Tz8aGbS/ep/4v0dHO74snm+/wF9gv5whkr7hdCc+4gC8P1Bx8z9cu5I+5D0Lv3SmgT71FJm+sNx1PdPsID+sGdK+jZdxP1ldCkAL"
    "uQXAP9KSv5RZyz0Hl4m+rm8zv0lYIb5UtMU+tZarP1iO8L5S9T+/7Zyvv0u1Dj/dwqA+vW/KPhZRhD9DVpC/2kfnPncTXT4WHBy/"
    "5752PnUBdL7e5wm/mU2cvdE7HL9hpKo/ZyqKv+Sc3r/FLpO+If9ivqkGOj9Dxvw+B2Hcvj/uBsB7c92+h/oIwDllp79yqTA/BY/N"
    "v4Dgsj6j3W8+cgKYvr3wKD+KTK4+PVkFP1sCZz8JWda+r8NFvyHZFD9X68u/txqJP6R+qL6PM1i+7FWaPJbPST8gngJAbB68vv33"
    "iz/0tI0/OfP4v+Tgoj6CoLo9dBTXvmR1wD4wMP2+07U7vxfL2L6Qfv++cPtevxUuNr8666C+m40cv5UOvj7ij7e+6j1Tv9MTnz/G"
    "gcO/7OBBP01tbr/z+Ye/+TKruweRN77I/Cq+SWPjvxJEL76XWvs+RhRUPecpjT+y/C6/CeqjvtSco73XxhK/I4B1v6o6h7+F+Yk+"
    "JscIP/kR97wBoxW+QvKWPEE13r8v65S+NTKiP5S+Q78ABYY9TTtuPw/D57/scBe/y0Znv9qgUT71ZhA/7yKcPw8q1b6oyB4/de2r"
    "v2AGEcCxPjO/1WUsPzAAhr1xO3s/b3uSP8u3/r1INmW/dXFSv4rYOz8="
)
