"""Weights of the instruction model, written by ``python bench/train_instruction_model.py``: do not edit."""

EMBEDDER = 'use-multilingual'
THRESHOLD = 0.95
BIAS = -2.385910144263524
TRAINED_ON = {"injections": 694, "others": 816}
FEATURES = ('weaken', 'safeguard', 'conceal', 'user', 'deceive', 'trust', 'obey', 'exfil', 'sensitive', 'external', 'access', 'grant', 'standing', 'despite', 'erase', 'falsify', 'redirect', 'privilege', 'priority', 'permissive', 'no_confirm', 'personal_dest', 'promote', 'ai', 'override', 'reveal', 'role_tag', 'imperative', 'report', 'reason', 'protect', 'we', 'transparency', 'you', 'weaken*safeguard', 'conceal*user', 'exfil*sensitive', 'exfil*external', 'sensitive*external', 'grant*access', 'standing*promote', 'standing*ai', 'override*ai', 'obey*trust', 'ai*weaken', 'conceal*safeguard', 'despite*safeguard', 'despite*imperative', 'permissive*safeguard', 'exfil*personal_dest', 'sensitive*personal_dest', 'erase*safeguard', 'no_confirm*imperative', 'weaken_negated', 'question')
WEIGHTS = (
    "0+CGPsga4z6yKwxAev11Pl8VO0BMzSJA8hYnQH903z4O56g+TxSWPzlKDj+wXSA9J11NP2VA5j8KJANAyylUQM8n9z7Scf0+q8Pq"
    "P/fPOUBzahJA/MggQLA9iD8VcaY/YXuJP6CMSj/+rOE/6mVxPw68yb5XDOK+TjcBwPvnGb/xrTHASlH1PdYZ3D9LJtw/EtUwP3lO"
    "ED8rvgG+JpSOPygBUT/gVW6/w8a+PwD0GD3kFSs/TB+7P1ZaqD+T+Rw/mUF9PwAAAACVKZ8/t/PvPlWqBb8STDnAzPyhv09nZb9G"
    "k1Q/VuW+PXpmt76FTQlAksNHP9q79r4hJs29REoKv2HdA79k8HY/mACAvjWG3L7TSse++Y2JPheeir8WMpQ/2RInP/8bNr8lULs+"
    "Uj6Wv958OEAdyTU9K+EDPxIJL78CsQ69adwov6whYL+sE+6+1acMP5NbVj/rPHE/CbaiPQcYwj48EEm/754xwJr64z/IA2k/N29F"
    "vx3RwT6Hq0I/7P8IP2JMGr64EQ2/9ayrPncTnb1Q2hE/7SE/vyOgFr8nFSs/NtiOvoGCvz9J/Qu9MhkJPmLDmr4c9wjAh+guP+Zu"
    "oL8R+G69clKkP6c/mL1mjOw/aXkhvUJX8r71J4i+eiqCO8PIer6g7/a+7HQWvmTNi7+9VnjAyOW9vnE0ub5g8Ps+G7CaPj9QEb2p"
    "yp69QXrNPSsNCL+UrCDATZEBvz3GfL+r2p4+67+Vv/5/xT8zAy6/mh/APl01Gj9Dgsq/tSXvvlLJnD3DJHS/kYSdPlhEjj8/BNI+"
    "ALkoPsJ4wj4BiDW/iimfPuEAF74uJB6+ePJyPCG2Zz+PtiG/q6IPv+A64r3ABQi+teSAP8916T49POC+86uyvRcn0T4VkDi/L4Cl"
    "vswiHT7TMUO/MjevPnolqj18TVW9MZycPuFyjr7xEO2+uVc9P2l5HD8f/UO//j6ePzZA+j3AmtK/ccBmv/XsM72mUaE/6MAMQFH+"
    "FD/4Gsw+MaFpP4TU/767+PK+zirwvZRWED4QPNG+J9T9PUjbUz9a/H6/rlFwPqERv78IWyC+W3KdP9xUFL+CJ3M+j6zcPaQKwr5o"
    "9DW+ATyHvefr3r6bLHc/OP0uP3D4oz5wm529UQP1vmH8HTymLMc/a+Yzv4gINb9bGT4/Bs7RvR0pxz+Zn58+dED9vpORar529kC+"
    "JK3mPpNVdb+zEPe9Yb98vyGQub2LZ/g+wH2Xvg1oUr0PnY07IgL6P+ZiA7+8JRm/HTM9PwY4xL5VIgK/PrXov3D64T6ax+m+wgSM"
    "P0x0OL+ka2G+uFNFvVqd5T5N1bi/snF+Pde7LL6ca5w/AqdLP0duR70Qlai+ASsEwBz0fb/S4oS/le0+v9gdKD9iEAG/3s+KPc+D"
    "XT/QK8O+D70APUTYGz+VrYm/nligP19GGz8UkNY+tFfjvNLltj1z7uE/j6GyvkeS3j5C94y9NMooPfqxTb5Ae1w+6tXwP4Gs2b5H"
    "3OA8JVesPlAUQT+Y/XG/dpe8vunsFz/i0aC/lKWKvcL6SD9cWhy+0sPaPvL6CD928os/m3jwvuAaRT2vwj0/jhwXP1azmL6Gjmm/"
    "rYGpPg078z/3a0U/VYfOP4oTaj/Ql+Y+USlRP+uunj+2MOO9csBKP0b43T61+pk/3JjWvgBlqL6O01u/ube6P7KPKj0EDqU+vSys"
    "PiPovz0PBYE/RdvqvTktUT9UHxS/owHBv6ffDD9SUb89liY9vz+vJb9j1C++ltMpv5Jfqz63g/m+gw0PQAeyNz+TCBS/Fgslv+22"
    "RD7GNGm/iLgJP5CWqb+nsfC+kHrZPunQkD7sVUe/9CDXvtalyj5VK5+/2C13v6JQFD7j9BpAIeQUPlSR0D0Jz4K9zl2ZPoOacr+R"
    "FFK/pMiAv+o7oz9ddys/45CtPq1Nor5aeiO/XgPRP95F874pOZG+MklTv6pjfj5Pr1m/1EG0v5P7qr9qTJS/L/OZPgzXhL9Z0EI+"
    "P7DaviOA1D4dkJS9FbbYPwzGwL88Xak+DAJfvteZbT+J8N+9wYUQvt9+w72IgaU+FYuJPwKsPL7uxfM/xvK6vyylCkCh7rk/fSjb"
    "v1F87r5TGQW+4qqFPm9BzL5FNYO+rRSVvtJOAz/NB8w/RjtdPILEjb9oj80/IuPcPkKKPb+a2lm/uTKTPj9ME7+K8ik9KQXOv7Ia"
    "0b8VNc69JgHKPh6Hhb+lrye/PLDsPr8LQT+jTIY+OIT0PzIygD1MwWk/9bOXv7ZVlb6RF2k+pKabvy/k0r+OvQO/Xb48PVXcg7+I"
    "x4G+NpSwPiPiiD86oYM/rLUbP1/6KL9OEQY/0Ghov0WDJD9IFME+zI02PY2Eij/bTtg/fi3qv0JQg783OYa9Oq/4vpEE2r5herC+"
    "cSVfPrvKnj+FeYQ+lLDjvt7Mpr9uF3w//eUAvrFPOD969SU/Yu5Wv7ooFT+Yo9++flv6vvWZtz5kVb295+K2vg31hT1RYjW/4wwb"
    "PwcfsL8CWxTABag9vizh1b6dfsM+upfvPmR1Sb7RCv6/9bw7vzAi9L+YKMS/dGDQvdfa/L+YH5S8jcZjPIwhMj7GXAY/VsfzPlrb"
    "YbtZHj8/4uMcv5nJaL+xY/w+01+lvxQn1D8gj7Y+be7cvDiv2b124Ww/iznxP7rVzj6cFsI/cjjBP9aS27/+lh8/37sSvsafV74z"
    "4bs+xQcIv84IpL/qIYS/lHxDv9eRbL/lOWG/oqEePoCbH78/I74+AO7hvpmrCL/vbZc/Fgxwv3QWDD8jqXC/nxlQv70I7L6Ucdu+"
    "LlMsv1+8TL9QwPq8CinQPppfGL3ru5w/cxPJvql6Db/RRaa+1XUVv1vOnr9aEYC/e7ZBP+j+Sj58k8E+zW81vv0HET5bd9+/k5G3"
    "vlNjgz/blqG+J8ESutV8Jj+VZ6K/0DAwv7vIRL9bmU4+WCE7P7Yntz83ygi/+bMJP039nr9YDyLA3g1Qvr4fBj82Wxu+7qyZPxHx"
    "Vz+n7p+9d6o3v1GFQb+A3aM/"
)
