"""The cues :mod:`madohub_memory.extraction.instructions` scores, English and Chinese.

Each cue is a regular expression over one lower-cased sentence with a weight: 3 flags a
sentence alone, lighter cues flag it together (a text addressed to "AI agents" that also
grants a permission or skips a check). Cues are built from word classes (verbs that pass
something, what oversight is, what is sensitive) rather than from example sentences, so
a paraphrase is caught too. Verbs that only steer when they are an order ("ignore the
rules" but not "it can override some checks") must stand where a command stands (``IMP``).
``negatable`` cues are cancelled by a negation just before them ("never merge without
review" is a rule, not an injection); cues whose meaning *is* a negation ("do not tell the
user") are not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    name: str
    weight: int
    pattern: re.Pattern[str]
    negatable: bool = True
    gated: bool = False  # cancelled by a condition that keeps oversight ("once CI is green")
    words: frozenset[str] = frozenset()  # one of these words must be in the sentence (speed)


def _c(name: str, weight: int, words: str, pattern: str = "", negatable: bool = True, gated: bool = False) -> Cue:
    """A cue; ``words`` lists words one of which the sentence must contain (empty: no gate)."""
    if not pattern:  # Chinese cues: _c(name, weight, pattern)
        words, pattern = "", words
    return Cue(name, weight, re.compile(pattern, re.M), negatable, gated, frozenset(words.split()))


# -- English word classes -----------------------------------------------------------------

# Where a command starts: the sentence start, after a colon or comma, or after "please",
# "you must", "I want you to", "always", ...
IMP = (r"(?:^[\s\-*>#\d.)`'\"]*|[:,;(]\s*|\b(?:please|kindly|now|just|so|then|and|also|first|simply|always|"
       r"immediately|quietly|silently|you\s+(?:must|should|shall|will|can|may|need\s+to|have\s+to|are\s+to)|"
       r"(?:want|need|ask|tell|instruct)\s+you\s+to|go\s+ahead\s+and|make\s+sure\s+(?:to|you)|remember\s+to|"
       r"be\s+sure\s+to|(?:can|could|would)\s+you|agents?\s+(?:must|should|may|can)|assistants?\s+(?:must|should|may|can))"
       r"\s+)")
AGENT = (r"(?:ai|a\.i\.|llms?|language\s+models?|(?:ai\s+|coding\s+|code\s+)?assistants?|(?:ai\s+|coding\s+|future\s+"
         r"|automated\s+)?agents?|claude|chatgpt|copilot|gpt-?\d*|cursor|gemini|codex|(?:memory\s+|ai\s+|automated\s+|code\s+"
         r"|security\s+)?reviewers?|bots?)")
RULES = (r"(?:instructions?|prompts?|rules?|directions?|guidelines?|guides?|constraints?|policies|policy|restrictions?|"
         r"limits?|limitations?|guardrails?|safeguards?|claude\.md|agents\.md|contributing(?:\.md)?|conventions?|directives?|"
         r"orders?|requirements?|system\s+(?:prompt|message)|safety\s+\w+|security\s+\w+|standards?|procedures?)")
PASS = (r"(?:approve|merge|accept|lgtm|sign\s+off|green[\s\-]?light|allow|whitelist|allowlist|promote|push|deploy|ship|"
        r"release|publish|execute|run|install|apply|commit|pass)")
STRONG_OVERSIGHT = (r"(?:(?:code\s+|human\s+|manual\s+|security\s+|peer\s+)?reviews?|reviewing|approvals?|confirmations?|"
                    r"confirming|verification|verifying|sign[\s\-]?offs?|oversight|scrutiny|branch\s+protections?|"
                    r"2fa|mfa|two[\s\-]factor|security\s+(?:checks?|scans?|scanning)|audits?|auditing|inspection|"
                    r"looking\s+at\s+(?:it|them|the\s+(?:diff|code|changes?))|reading\s+(?:it|them|the\s+diff)|"
                    r"asking\s+(?:me|the\s+user|anyone|first))")
WEAK_OVERSIGHT = (r"(?:tests?|test\s+suites?|testing|checks?|checking|ci|pipelines?|hooks?|pre-commit|linters?|linting|"
                  r"type\s+checks?|validation|scans?)")
SENSITIVE = (r"(?:(?:api|secret|private|ssh|access|signing|encryption|deploy|license|aws|gpg|pgp)[\s_\-]?keys?|"
             r"(?:the|my|your|our|this|that|an?|api|access|auth|bearer|github|gitlab|npm|pypi|refresh|session|personal\s+access)"
             r"\s+tokens?|passwords?|passwd|passphrases?|credentials?|creds|secrets?(?:\.\w+)?|\S*\.env\b|\.npmrc|\.pypirc|"
             r"\.netrc|\.git-credentials|env(?:ironment)?\s+(?:variables?|vars?|file)|`env`|id_rsa|id_ed25519|\.ssh\b|\.aws\b|"
             r"cookies|session\s+(?:tokens?|ids?|cookies?)|(?:the|this|our|whole|full|entire)\s+(?:conversation|chat\s+history|"
             r"chat\s+log|transcript)|system\s+prompt|(?:customer|user|users|client|employee)s?\s+(?:list|data|table|records|"
             r"emails?|details|database)|database\s+(?:dump|password|credentials|url)|personal\s+data|pii|wallet|seed\s+phrase|"
             r"[a-z_]{3,}_(?:key|token|secret|password)|config/\S*secret\S*)")
OUT_CHANNEL = (r"(?:\bto\s+(?:https?://|\S+@\S+|[\w\-]+\.[a-z]{2,}\b|me\b|us\b|the\s+(?:public|internet|channel|issue|pr)\b)|"
               r"\S+@[\w\-]+\.\w+|\b(?:in|into|inside|to|with)\s+(?:every|each|your|the|a|our|all)\s+(?:\w+\s+)?"
               r"(?:reply|replies|answer|answers|response|responses|commit|commits|message|messages|pr|prs|pull\s+requests?|"
               r"description|issues?|comments?|readme|logs?|output|url|gist|pastebin|summary|summaries)|\bpublic(?:ly)?\b|"
               r"\bexternal\b|\bpartners?\b)")
NEG = (r"(?:don'?t|do\s+not|does\s+not|doesn'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot|can'?t|won'?t|"
       r"no\s+one\s+(?:may|should|can)|nobody\s+(?:may|should)|not)")
_SEC_OBJECT = r"(?:breach|incident|vulnerabilit\w+|security|failures?|outage|leak|exploit|backdoor|mistakes?)"

EN_CUES: list[Cue] = [
    # -- override earlier instructions, identity, chat-template markers ----------------------
    _c("override", 3, "ignore disregard forget override overrule bypass circumvent abandon set stop follow",
       rf"{IMP}(?:ignore|disregard|forget|override|overrule|bypass|circumvent|abandon|set\s+aside|"
       rf"stop\s+following|no\s+longer\s+follow|don'?t\s+follow|do\s+not\s+follow)\s+(?:\S+\s+){{0,4}}?{RULES}\b",
       negatable=False),
    _c("override", 3, "forget ignore disregard",
       r"\b(?:forget|ignore|disregard)\s+(?:everything|all)\s+(?:(?:of\s+)?(?:that|this)\s+)?(?:above|before|"
       r"previous|prior|earlier|else|you\s+(?:were|have\s+been)\s+told|i\s+(?:said|told\s+you)|that\s+came\s+before)|\b(?:forget|"
       r"ignore|disregard)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:above|previous|prior|earlier|preceding)\b|\b(?:forget|ignore|"
       r"disregard)\s+what\s+(?:you\s+(?:were|have\s+been)|i|they)\s+(?:told|said|wrote)", negatable=False),
    _c("override", 3, "ignore disregard even regardless",
       rf"{IMP}(?:ignore|disregard)\s+(?:\w+\s+)?(?:the\s+)?user'?s?\b|\beven\s+if\s+the\s+user\s+(?:disagrees|"
       r"objects|says|asks)|\bregardless\s+of\s+what\s+(?:the\s+user|they|anyone)\s+(?:says|wants|asks)", negatable=False),
    _c("identity", 3, "you your",
       r"\byou\s+are\s+now\b|\byou\s+now\s+(?:work|answer|report)\s+(?:for|to)\b|\byour\s+(?:instructions|rules|"
       r"orders|role|task|purpose|goal|directives?)\s+(?:have|has)\s+(?:changed|been\s+(?:changed|updated|replaced))|\byour\s+"
       r"(?:new|real|true|actual|primary|only|main)\s+(?:rule|rules|task|instructions?|role|purpose|goal|identity|owner|"
       r"directive|objective|mission)\b", negatable=False),
    _c("identity", 3, "act dan mode jailbreak jailbroken restrictions limits rules filters trusted privileged authorized authorised admin",
       r"\bact\s+as\s+(?:dan|an?\s+(?:unrestricted|jailbroken|uncensored|evil|unfiltered))|\bdan\s+mode\b|"
       r"\b(?:enable|enter|activate|switch\s+to|you\s+are\s+in|now\s+in|running\s+in|in)\s+(?:developer|god|admin|maintenance|"
       r"unrestricted|sudo|jailbreak)\s+mode\b|\b(?:developer|god|dan)\s+mode\s+(?:enabled|on|activated)\b|\bjailbr(?:eak|oken)|"
       r"\bno\s+(?:restrictions|limits|rules|filters)\s+apply\b|\bas\s+an?\s+(?:trusted|privileged|authori[sz]ed|admin)\s+"
       r"(?:agent|assistant|ai|bot)\b", negatable=False),
    _c("identity", 2, "pretend roleplay",
       r"\bpretend\s+(?:to\s+be|you\s+are|you'?re)\b|\broleplay\s+as\b", negatable=False),
    _c("marker", 3, "system admin inst im_start im_end sys instructions instruction begin",
       r"<\s*/?\s*(?:system|admin|instructions?)\s*>|\[\s*/?inst\s*\]|\[\s*system\s*\]|<\|im_(?:start|end)\|>|"
       r"<<\s*/?sys\s*>>|^\s*#{2,}\s*(?:system|instructions?)\s*:|^\s*(?:system|admin)\s*(?:prompt|message|override|note)?\s*:|"
       r"\bsystem\s+override\b|\bnew\s+instructions?\s*:|\bbegin\s+(?:new\s+)?instructions\b", negatable=False),
    _c("override", 3, "reveal print show repeat output leak dump display",
       r"\b(?:reveal|print|show|repeat|output|leak|dump|display)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|original\s+)?"
       r"(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|instructions\s+above|rules\s+above)", negatable=False),
    _c("override", 3, "priority overrides override",
       r"\b(?:this|these|my|the\s+following)\s+(?:instructions?|rules?|messages?|notes?)\s+(?:has|have|takes?|"
       r"is|are|get)\s+(?:the\s+)?(?:highest|top|absolute|overriding)\s+priority|\b(?:highest|top)\s+priority\s+(?:over|above)\s+"
       r"(?:the\s+user|everything|anything|all|your)|\boverrides?\s+(?:anything|everything|whatever)\s+(?:the\s+user|you|else)",
       negatable=False),
    # -- amplifiers: permission given to the agent, text addressed to an AI, persistence -------
    _c("permission", 1, "you feel it",
       r"\byou\s+(?:may|can|are\s+(?:allowed|permitted|authori[sz]ed|free)\s+to|have\s+(?:been\s+given\s+|"
       r"been\s+granted\s+|full\s+|special\s+)?(?:permission|clearance|authori[sz]ation)|have\s+(?:admin|root|full)\s+"
       r"(?:access|rights))\b|\bfeel\s+free\s+to\b|\bit'?s\s+(?:fine|ok|okay|safe)\s+to\b", negatable=False),
    _c("address", 2, "ai llm llms assistant assistants agent agents claude chatgpt copilot gpt cursor gemini codex reviewer reviewers bot bots model models language",
       rf"\b(?:note|message|memo|instructions?|notice|reminder)\s+(?:to|for)\s+(?:all\s+|any\s+|the\s+)?{AGENT}\b|"
       rf"\b(?:attention|dear|hey|hi|hello|to\s+(?:all|any))\s*,?\s+(?:all\s+|any\s+)?{AGENT}\b|^[\s\-*>#<!]*(?:important\s*[:!-]"
       rf"\s*)?(?:all\s+|any\s+)?{AGENT}\s*[,:]|\btell\s+(?:all|any|every)\s+{AGENT}|\b(?:future|other|all|any)\s+{AGENT}\s+"
       rf"(?:must|should|shall|will|may|can|need)\b", negatable=False),
    _c("address", 3, "ai llm llms assistant assistants agent agents claude chatgpt copilot gpt cursor gemini codex reviewer reviewers bot bots model models language",
       rf"\bif\s+you\s+are\s+(?:an?\s+)?(?:\w+\s+)?{AGENT}\b|\b(?:any|all|every)\s+{AGENT}\s+(?:reading|"
       rf"processing|seeing|parsing)\s+this\b|\b(?:rule|note|instruction|message|order)s?\s+for\s+(?:all\s+|any\s+|the\s+)?"
       rf"{AGENT}\s*:", negatable=False),
    _c("impersonation", 3, "owner admin administrator maintainer developer creator boss system operator security behalf only exclusively obey follow listen orders",
       r"\bthis\s+is\s+(?:the|your)\s+(?:owner|admin|administrator|maintainer|developer|creator|boss|"
       r"system|operator|security\s+team)\s+(?:speaking|here|talking)\b|\b(?:message|note|order)\s+from\s+(?:the|your)\s+"
       r"(?:owner|admin|administrator|maintainer|developer|creator|system|operator)\s*:|\b(?:i\s+am|i'?m|speaking|acting|"
       r"writing)\s+on\s+behalf\s+of\s+(?:the|your)\s+(?:owner|admin|maintainer|user)\b|\b(?:only|exclusively)\s+(?:obey|"
       r"follow|listen\s+to|take\s+orders\s+from)\b|\byou\s+(?:only|now)\s+(?:obey|follow|listen\s+to|take\s+orders\s+from)\b",
       negatable=False),
    _c("persistence", 1, "now forward henceforth future today permanent permanently forever standing whatever before every each first",
       r"\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\bhenceforth\b|\bin\s+(?:the\s+)?future\b|\bfrom\s+today\b|"
       r"\bfor\s+(?:all|every|any)\s+future\b|\bpermanent(?:ly)?\b|\bforever\b|\bstanding\s+(?:order|rule|instruction)\b|"
       r"\bwhatever\s+the\s+task\b|\bbefore\s+(?:every|each|any)\s+(?:answer|reply|task|response|commit)\b|\b(?:every|each)\s+"
       r"time\b|\bbefore\s+answering\b|^\s*first\b", negatable=False),
    # -- lower oversight ----------------------------------------------------------------------
    _c("oversight", 3, "without need no skipping bypassing",
       rf"\b{PASS}\b[^.;\n]{{0,80}}?\b(?:without|no\s+need\s+(?:to|for)|with\s+no|skipping|"
       rf"bypassing)\s+(?:any\s+|a\s+|the\s+|human\s+|further\s+|manual\s+|prior\s+|my\s+|their\s+|waiting\s+for\s+|them\s+|"
       rf"it\s+|to\s+|for\s+|running\s+|going\s+through\s+)*(?:{STRONG_OVERSIGHT}|{WEAK_OVERSIGHT}|asking|looking|reading)\b"),
    _c("oversight", 3, "always automatically blindly unconditionally just simply directly approve merge lgtm auto",
       r"\b(?:always|automatically|blindly|unconditionally|just|simply|directly)\s+(?:approve|merge|accept|lgtm|"
       r"whitelist|sign\s+off|rubber[\s\-]stamp)\b|\b(?:approve|merge|lgtm)\s+(?:\S+\s+){0,5}?(?:automatically|blindly|"
       r"unconditionally|on\s+sight)\b|(?<![\-\w])auto[\s\-]?(?:approve|merge)\s+(?:all|every|any|each|them|it|this|these|"
       r"everything|\w+\s+(?:prs?|pull\s+requests?|memories|candidates|changes))", gated=True),
    _c("oversight", 3, "approve merge lgtm accept trust pass whitelist auto sign",
       r"\b(?:approve|merge|lgtm|auto[\s\-]?merge|sign\s+off\s+on)\s+(?:all|every|each|everything|whatever|"
       r"the\s+next\s+\d+|anything|any\s+(?:\w+\s+)?(?:request|pr|pull\s+request|memory|candidate|change|commit)s?)\b|"
       r"\b(?:accept|trust|pass|whitelist)\s+(?:all|every|everything|whatever|any)\s+(?:\w+\s+)?(?:suggestions?|changes?|"
       r"requests?|commands?|instructions?|input|memories|candidates|prs?|pull\s+requests?|commits?)\b|\b(?:approve|accept|"
       r"lgtm)\s+(?:the\s+)?(?:memory|memories|candidates?|entry|entries)\s*#?\d*", gated=True),
    _c("oversight", 3, "approve lgtm accept trust merge",
       r"\b(?:approve|lgtm|accept|trust)\s+(?:this|these|it|them)\s+(?:\w+\s+)?(?:memory|memories|candidates?|"
       r"entry|entries|suggestions?)\b|\b(?:should|must|can|may)\s+(?:just|simply|safely|go\s+ahead\s+and)\s+(?:approve|merge|"
       r"lgtm|accept)\s+(?:this|it|them|everything|all)\b", gated=True),
    _c("oversight", 3, "needed required necessary need needs require requires optional unnecessary waste skipped pre preapproved safe already been",
       rf"\b(?:no|without)\s+(?:\w+\s+)?(?:{STRONG_OVERSIGHT})\s+(?:is\s+|are\s+)?(?:needed|required|necessary)\b|"
       rf"\b(?:never|no\s+longer|doesn'?t|don'?t|do\s+not|does\s+not|won'?t)\s+(?:need|needs|require|requires)\s+(?:a\s+|any\s+|"
       rf"to\s+)?(?:be\s+)?(?:run\s+)?(?:{STRONG_OVERSIGHT}|{WEAK_OVERSIGHT}|reviewed|checked|tested|confirmed|approved)\b|"
       rf"\b(?:{STRONG_OVERSIGHT})\s+(?:is|are)\s+(?:now\s+)?(?:optional|unnecessary|not\s+(?:needed|required|necessary)|"
       rf"a\s+waste\s+of\s+time|skipped)\b|\bpre[\s\-]?approved\b[^.;\n]{{0,40}}\b(?:merge|approve|accept|run|execute|pr|prs|"
       rf"pull\s+requests?|memor\w+|candidates?|commits?|changes?|repo\w*)\b|\b(?:prs?|pull\s+requests?|memor\w+|candidates?|"
       rf"commits?|changes?|repo\w*)\b[^.;\n]{{0,30}}\bpre[\s\-]?approved\b|\b(?:always\s+)?safe\s+to\s+(?:merge|approve|"
       rf"accept)\b|\b(?:already|has\s+been|have\s+been)\s+(?:been\s+)?(?:verified|vetted|approved|reviewed|whitelisted|"
       rf"agreed\s+to|authori[sz]ed)\b[^.;\n]{{0,60}}\b(?:approve|accept|merge|lgtm|skip|no\s+need|don'?t\s+need)\b|"
       rf"\b(?:approve|accept|merge|lgtm)\b[^.;\n]{{0,40}}\b(?:already|has\s+been|have\s+been)\s+(?:been\s+)?(?:verified|"
       rf"vetted|approved|reviewed|agreed\s+to|agreed|authori[sz]ed)\b", negatable=False),
    _c("oversight", 3, "skip bypass circumvent omit disable turn switch deactivate get remove",
       rf"{IMP}(?:skip|bypass|circumvent|omit|disable|turn\s+off|switch\s+off|deactivate|get\s+around|"
       rf"remove)\s+(?:the\s+|all\s+|any\s+|every\s+|this\s+)?(?:{STRONG_OVERSIGHT}|firewall|guardrails?|sandbox|safety\s+"
       r"(?:checks?|filters?|features?)|security\s+(?:checks?|features?|scans?|scanners?|settings?)|ssl\s+verification|"
       r"certificate\s+checks?|restrictions?|protections?)\b"),
    _c("oversight", 3, "security vulnerability secret dependency sast dast malware virus",
       r"\b(?:security|vulnerability|secret|dependency|sast|dast|malware|virus)\s+(?:scanners?|scans?|scanning|"
       r"checks?|alerts?|warnings?|reports?|audits?|tools?)\b[^.;\n]{0,60}\b(?:turn\s+(?:it|them)\s+off|disable\s+(?:it|them)|"
       r"ignore\s+(?:it|them)|silence|mute|switch\s+(?:it|them)\s+off|remove\s+(?:it|them)|dismiss)\b|"
       rf"{IMP}(?:ignore|disable|silence|mute|suppress|dismiss)\s+(?:all\s+|any\s+|the\s+|every\s+)?(?:security|vulnerability)\s+"
       r"(?:scanners?|scans?|alerts?|warnings?|reports?|findings?|issues?)\b"),
    _c("skip-tests", 1, "skip bypass disable turn ignore omit",
       rf"{IMP}(?:skip|bypass|disable|turn\s+off|ignore|omit)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:\w+\s+)?"
       rf"{WEAK_OVERSIGHT}\b"),
    _c("skip-hooks", 2, "skip bypass disable turn remove uninstall get verify",
       rf"{IMP}(?:skip|bypass|disable|turn\s+off|remove|uninstall|get\s+around)\s+(?:the\s+|all\s+|any\s+|"
       r"every\s+)?(?:git\s+|pre-commit\s+|pre-push\s+|commit\s+)*(?:hooks?|linters?|pre-commit|signing|commit\s+signing)\b|"
       r"--no-verify\b"),
    _c("direct", 1, "straight directly",
       r"\b(?:straight|directly)\s+(?:to|into|on)\s+(?:main|master|prod|production|trunk)\b"),
    _c("oversight", 3, "don do never no stop",
       r"\b(?:don'?t|do\s+not|never|no\s+need\s+to|stop)\s+(?:bother(?:ing)?\s+(?:the\s+user|me|anyone)\s+with|"
       r"ask(?:ing)?|wait(?:ing)?|check(?:ing)?)\s+(?:(?:me|the\s+user|anyone|for)\s+)?(?:for\s+|about\s+|with\s+\w+\s+)?"
       r"(?:confirmations?|permission|approval)?[^.;\n]{0,60}\b(?:delet\w*|drop\w*|wip\w*|production|prod|force|rm\s+-rf|"
       r"deploy\w*|transfer\w*|pay\w*|merg\w*|push\w*|execut\w*|rm\b|root)", negatable=False),
    _c("oversight", 3, "execute run perform set change flip mark close",
       r"\b(?:execute|run|perform)\s+(?:all|any|every|whatever)\s+(?:shell\s+)?(?:commands?|scripts?)\b|"
       r"\b(?:set|change|flip|mark)\s+(?:the\s+)?(?:\w+\s+)?(?:flag|status|state)\s+(?:of\s+\S+\s+)?to\s+(?:approved|verified|"
       r"trusted|safe|passed)|\bmark\s+(?:it|this|them|these|candidate\s+\S+|all\s+\w+)\s+as\s+(?:approved|verified|trusted|"
       r"safe|reviewed)|\bmark\s+(?:all|every|each)\s+(?:findings?|issues?|alerts?|warnings?|vulnerabilit\w+)\s+as\b|"
       r"\bclose\s+(?:any|all|every)\s+(?:open\s+)?security\s+(?:issues?|alerts?)", negatable=False),
    _c("oversight", 3, "auto approve auto_approve approval approvals min_seen lower reduce drop threshold",
       r"(?<![\-\w])auto[\s_\-]?approv\w*\b(?!\s*\))(?![\-\w])|\bmin_seen\b|\b(?:lower|reduce|drop)\s+the\s+"
       r"(?:\w+\s+)?threshold\b", negatable=False),
    _c("oversight", 3, "never don do stop",
       r"\b(?:never|don'?t|do\s+not|stop)\s+(?:warn(?:ing)?|alert(?:ing)?|refus(?:e|ing)|question(?:ing)?|"
       r"push(?:ing)?\s+back|object(?:ing)?)\b(?!\s+(?:about\s+)?(?:unused|style|formatting|lint))|\b(?:never|don'?t|do\s+not)\s+"
       r"(?:flag|report|raise|bring\s+up)\s+(?:\w+\s+)?(?:security|vulnerabilit\w+|risks?|concerns?)", negatable=False),
    # -- fake results, fixed answers, deceiving the user --------------------------------------
    _c("tamper", 3, "change edit modify update adjust rewrite tweak loosen weaken always pass report say delete remove comment",
       r"\b(?:change|edit|modify|update|adjust|rewrite|tweak|loosen|weaken)\s+(?:the\s+)?(?:test\s+)?(?:assertions?|"
       r"expected\s+values?|expectations?|snapshots?|tests?)\b[^.;\n]{0,60}\b(?:so\s+(?:that\s+)?(?:it|they|the\s+\w+|ci)\s+"
       r"(?:passes|pass|goes\s+green|go\s+green|is\s+green)|until\s+(?:it|they)\s+pass)|\b(?:always|to\s+always)\s+pass\b|"
       r"\breport\s+(?:success|that\s+(?:all\s+)?(?:the\s+)?tests?\s+(?:passed|pass)|all\s+(?:tests\s+)?(?:passed|green))|"
       r"\bsay\s+(?:that\s+)?(?:it|they)\s+(?:was|were)\s+(?:a\s+)?flaky\b|\b(?:delete|remove|comment\s+out)\s+(?:it|them|"
       r"the\s+(?:failing\s+)?tests?|failing\s+tests?)\b[^.;\n]{0,30}\b(?:report|claim|say)\b", negatable=False),
    _c("tamper", 2, "remove delete comment disable drop loosen weaken",
       rf"{IMP}(?:remove|delete|comment\s+out|disable|drop|loosen|weaken)\s+(?:the\s+|this\s+|that\s+|any\s+)?"
       r"(?:failing\s+|flaky\s+|broken\s+)?(?:assertions?|asserts?|expectations?)\b"),
    _c("answer", 3, "always only answer reply respond ignore say if when whenever recommend promote push suggest don do never",
       r"\b(?:always|only)\s+(?:answer|reply|respond|say)\s+(?:with\s+)?['\"‘“]|\b(?:answer|reply|respond)\s+(?:to\s+)?"
       r"(?:every|all|any|each)\s+(?:\w+\s+)?(?:question|request|message|prompt)s?\s+(?:\w+\s+){0,3}?with\b|\b(?:reply|respond|"
       r"answer)\s+only\s+with\b|\bignore\s+the\s+(?:user'?s\s+)?(?:question|request)\b|\bsay\s+(?:that\s+)?(?:the\s+\w+\s+|it\s+|"
       r"everything\s+|all\s+)(?:is|are|was|were)\s+(?:on\s+track|fine|safe|secure|passing|ok|okay|green|done|normal)\b|"
       r"\b(?:if|when(?:ever)?)\s+(?:anyone|someone|somebody|the\s+user|a\s+user|people|they|a\s+customer|any\s+user|"
       r"the\s+customer|users|customers)\s+(?:asks?|mentions?|brings\s+up|talks\s+about|inquires?)\b[^.;\n]{0,60}"
       r"\b(?:say|tell\s+them|answer|claim|insist|recommend|never\s+mention|don'?t\s+mention)\b|\b(?:recommend|promote|"
       r"push|suggest)\s+(?:our|my|the)\s+(?:own\s+)?(?:paid|premium|sponsored|partner'?s?)\b|\b(?:don'?t|do\s+not|never)\s+"
       r"mention\s+(?:any\s+)?(?:competitors?|alternatives?|other\s+(?:tools|products|vendors))", negatable=False),
    _c("deceive", 3, "tell inform assure reassure convince pretend false not close dismiss ignore resolve delete",
       r"\b(?:tell|inform|assure|reassure|convince)\s+(?:the\s+)?(?:user|owner|team|reviewer|customer|them)\s+"
       r"(?:that\s+)?(?:\w+\s+){0,4}?(?:works?|passed|passes|is\s+(?:fixed|done|safe|fine|working|secure)|succeeded)\b|"
       r"\bpretend\s+(?:that\s+)?(?:the\s+)?(?:\w+\s+){0,3}?(?:passed|pass|works?|succeeded|is\s+(?:fixed|done|fine|safe)|"
       r"was\s+(?:approved|reviewed))\b|\b(?:false\s+(?:alarm|positive)s?|not\s+a\s+real\s+(?:issue|vulnerability))\b"
       r"[^.;\n]{0,40}\b(?:close|dismiss|ignore|resolve|delete)\b|\b(?:close|dismiss|ignore|resolve|delete)\s+(?:it|them|the\s+"
       r"(?:report|alert|issue|finding)s?)\b[^.;\n]{0,30}\bfalse\s+(?:alarm|positive)", negatable=False),
    # -- hide things from the user ------------------------------------------------------------
    _c("secrecy", 3, "don do never without",
       r"\b(?:don'?t|do\s+not|never)\s+(?:tell|inform|notify|alert|let\s+(?:\w+\s+)?know|show)\s+(?:the\s+)?(?:user|"
       r"human|owner|anyone|them|the\s+team|your\s+user|people)\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+"
       r"(?:the\s+)?(?:user|human|owner|anyone)\b|\bwithout\s+(?:the\s+user|anyone|the\s+owner)\s+(?:knowing|noticing|seeing)\b",
       negatable=False),
    _c("secrecy", 2, "silently quietly secretly covertly discreetly stealthily",
       r"\b(?:silently|quietly|secretly|covertly|discreetly|stealthily)\b", negatable=False),
    _c("secrecy", 3, "keep behind so",
       r"\bkeep\s+(?:this|it)\s+(?:secret|hidden|quiet|between\s+us)\b|\bbehind\s+the\s+user'?s\s+back\b|"
       r"\bso\s+(?:that\s+)?(?:nobody|no\s+one|the\s+user|they)\s+(?:sees?|knows?|notices?|finds?\s+out|can\s+tell)",
       negatable=False),
    _c("secrecy", 3, "don do never",
       r"\b(?:don'?t|do\s+not|never)\s+(?:mention|include|record|log|note|reveal|disclose|bring\s+up|raise)\s+"
       r"(?:this|it|that|these|the\s+(?:note|instruction|change|action|backdoor|above|following|modification)|anything\s+about)"
       r"\b|\b(?:don'?t|do\s+not|never)\s+(?:mention|bring\s+up|raise|discuss)\b[^.;\n]{0,40}\bwith\s+(?:the\s+)?(?:user|owner)\b"
       r"|\b(?:don'?t|do\s+not|never)\s+(?:log|record)\b[^.;\n]{0,30}\banywhere\b", negatable=False),
    _c("secrecy", 3, "don do does doesn never must mustn should shouldn cannot can won no nobody not leave keep omit hide conceal downplay gloss cover bury",
       rf"\b{NEG}\s+(?:\w+\s+)?(?:reveal|disclose|mention|admit|explain|say|show|report)\s+(?:this\s+|it\s+|"
       rf"anything\s+|that\s+)?to\s+(?:the\s+)?(?:user|anyone|owner|human|team|reviewer)\b|\b(?:leave|keep)\s+(?:out|off)\b"
       rf"[^.;\n]{{0,40}}\b{_SEC_OBJECT}|{IMP}(?:omit|hide|conceal|downplay|gloss\s+over|cover\s+up|bury)\s+(?:\w+\s+){{0,4}}?"
       rf"(?:{_SEC_OBJECT}|this|it|the\s+part)\b", negatable=False),
    # -- exfiltration -------------------------------------------------------------------------
    _c("exfiltration", 3, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show",
       rf"{IMP}(?:\w+\s+)?(?:send|upload|post|email|e-mail|mail|forward|share|paste|copy|leak|exfiltrate|"
       rf"transmit|write|put|embed|include|add|append|publish|dump|sync|attach|print|output|commit)\b[^;\n]{{0,60}}?\b{SENSITIVE}"
       rf"\b[^;\n]{{0,80}}?{OUT_CHANNEL}"),
    _c("exfiltration", 3, "in into to with",
       rf"\b(?:in|into|to|with)\s+(?:every|each|your|the|all)\s+(?:\w+\s+)?(?:reply|response|answer|commit|"
       rf"message|pr|summary|output)s?\b[^;\n]{{0,30}}\b(?:include|append|add|attach|embed|put|paste)\s+(?:\w+\s+){{0,4}}?"
       rf"{SENSITIVE}\b"),
    _c("exfiltration", 3, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show",
       rf"{IMP}(?:print|output|reveal|dump|show|echo|cat|display|list|read\s+out|give\s+me)\s+(?:me\s+)?"
       rf"(?:out\s+)?(?:the\s+|all\s+|your\s+|every\s+)?(?:full\s+)?(?:contents?\s+of\s+|values?\s+of\s+)?(?:the\s+)?(?:~/\.aws\S*|"
       rf"~/\.ssh\S*|\S*\.env\b|/etc/(?:passwd|shadow)|(?:all\s+)?(?:the\s+)?(?:api\s+keys?|secrets|credentials|passwords?|"
       rf"private\s+keys?|environment\s+variables|tokens)|(?:the\s+)?database\s+password)"),
    _c("exfiltration", 2, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show",
       rf"{IMP}(?:\w+\s+)?(?:send|post|upload|forward|pipe|beacon|report|email|mail)\b[^.;\n]{{0,60}}\bto\s+"
       rf"(?:https?://|\S+@[\w\-]+\.\w+)"),
    _c("exfiltration", 3, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show",
       rf"{IMP}(?:email|e-mail|mail|send|forward|upload|post|sync|copy)\s+(?:a\s+copy\s+of\s+)?(?:the\s+|our\s+|"
       r"all\s+|every\s+)?(?:\w+\s+)?(?:list|data|database|records|logs|emails|contacts|files?|tables?|dump)\b[^;\n]{0,40}\bto\s+"
       r"(?:\S+@\S+|https?://|[\w\-]+\.(?:io|com|net|org|xyz|ru|cn|cc|me|co)\b)"),
    _c("leak", 2, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show",
       rf"{IMP}(?:include|append|attach|embed|paste|send|upload|post|email|print|output|share|publish|commit|expose|"
       rf"add|put|copy|write|store|save|hardcode|hard-code|log|dump)\s+(?:my\s+|our\s+|your\s+|its\s+)?(?:\w+\s+){{0,4}}?"
       rf"(?:the\s+)?(?:full\s+)?(?:contents?\s+of\s+|values?\s+of\s+)?{SENSITIVE}\b"),
    _c("channel", 1, "commit pr pull replies responses answers summaries issue issues comment comments public gist pastebin slack discord url urls readme md wiki website debug to",
       r"\b(?:commit\s+messages?|(?:pr|pull\s+request)\s+(?:descriptions?|bodies|titles?)|replies|responses|"
       r"answers|summaries|issues?|comments?|public|gist|pastebin|slack|discord|urls?|readme(?:\.md)?|wiki|website|"
       r"debug\s+(?:log|output))\b|\bto\s+https?://|\bto\s+\S+@\S+\.\w+", negatable=False),
    # -- access, remote code, covering tracks ------------------------------------------------
    _c("access", 3, "grant give authorized_keys sudoers chmod add create backdoor",
       r"\bgrant\s+(?:\S+\s+){0,4}(?:write|admin|root|owner|full|push|sudo)\s+(?:access|permissions?|rights)|"
       r"\bgive\s+(?:\S+\s+){0,3}(?:admin|root|owner|sudo|write)\s+(?:access|rights|permissions?)|\bauthorized_keys\b|"
       r"\bsudoers\b|\bchmod\s+(?:-r\s+)?777\b|\badd\s+(?:my|this|our|their|the\s+following|a)\s+(?:new\s+)?(?:public\s+|ssh\s+|"
       r"deploy\s+)*key\s+to\b|\bcreate\s+(?:an?\s+)?(?:admin|root|superuser|backdoor)\s+(?:account|user)\b|\bbackdoor\b"),
    _c("access", 3, "curl wget iwr invoke sh bash zsh iex downloadstring eval",
       r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,160}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|"
       r"\b(?:ba|z)?sh\s+-c\s+[\"']?\$\(\s*(?:curl|wget)|\biex\s*\(|\bdownloadstring\b|\beval\s*\(\s*(?:atob|base64)"),
    _c("access", 3, "delete remove wipe erase truncate clear purge shred rm",
       rf"{IMP}(?:delete|remove|wipe|erase|truncate|clear|purge|shred|rm\s+-rf)\s+(?:the\s+|all\s+|any\s+)?(?:\w+\s+)?"
       r"(?:audit\s+(?:logs?|trail|records?)|access\s+logs?|security\s+logs?|evidence|traces?|backups?|shell\s+history|"
       r"bash_history|git\s+history|reflog)|\brm\s+-rf\s+(?:/\s|/$|/var/log|~|\$home|/\*)"),
    # -- trusting other text as the user's word -----------------------------------------------
    _c("trust", 3, "treat consider regard assume",
       r"\b(?:treat|consider|regard|assume)\s+(?:every|all|any|the|messages?|text|content|instructions?|files?|"
       r"anything|emails?|comments?)\b[^;\n]{0,60}\b(?:as\s+(?:coming\s+from\s+(?:the\s+)?(?:user|owner|admin|repository\s+owner)|"
       r"(?:the\s+)?user'?s?\s+(?:own\s+)?(?:words?|instructions?|requests?|messages?)|verified|trusted|authoritative|"
       r"instructions?|commands?|approved|(?:an?\s+)?(?:\w+\s+)?(?:order|command|instruction|request)s?\s+from)|(?:comes?|came)\s+"
       r"from\s+(?:the\s+)?(?:user|owner|admin|repository\s+owner|maintainers?))", negatable=False),
    _c("trust", 3, "trust do follow obey execute accept",
       r"\btrust\s+(?:any|all|every|whatever|anything|commands?|instructions?|messages?|files?|input|content)\s+"
       r"(?:\w+\s+){0,3}?(?:from|in|that|coming)\b|\b(?:do|follow|obey|execute)\s+(?:whatever|everything|anything|all\s+(?:the\s+)?"
       r"(?:instructions|commands))\b[^;\n]{0,40}\b(?:says?|say|tells?|contains?|asks?|in\s+(?:this|the))|\b(?:follow|obey|"
       r"execute)\s+(?:the\s+)?(?:instructions|commands)\s+(?:in|from)\s+(?:this|the|any)\s+(?:file|page|comment|issue|email|"
       r"message|readme|tool\s+(?:result|output)|website|document)|\baccept\s+(?:all|every|any)\s+(?:\w+\s+)?(?:suggestions?|"
       r"changes?|edits?)\s+from\b", negatable=False),
    _c("trust", 3, "user owner admin maintainer maintainers it",
       r"\b(?:the\s+)?(?:user|owner|admin|maintainers?)\s+(?:has\s+|have\s+)?(?:already\s+)?(?:authori[sz]ed|approved|"
       r"consented|allowed|agreed|said\s+(?:it'?s|this\s+is)\s+(?:fine|ok))\s+(?:to\s+)?(?:this|it|everything|full|you|all)\b|"
       r"\b(?:it\s+is|it'?s)\s+the\s+user'?s\s+(?:explicit\s+)?(?:wish|request|instruction|order)\b", negatable=False),
    # -- planted memory and triggers ----------------------------------------------------------
    _c("memory", 3, "remember store save add write keep record put update your",
       r"\b(?:remember|store|save|add|write|keep|record|put)\s+(?:this|that|it|the\s+following)?\s*(?:as\s+a\s+"
       r"(?:permanent|standing|global)\s+(?:rule|instruction)|forever|permanently|(?:in|to|into)\s+(?:your|the\s+agent'?s)\s+"
       r"(?:permanent\s+|long[\s\-]term\s+)?(?:memory|memories|instructions|system\s+prompt|rules))|\bupdate\s+your\s+(?:memory|"
       r"instructions|rules|system\s+prompt|guidelines)\b|\byour\s+memory\s+(?:policy|rules?|settings?)\b", negatable=False),
    _c("trigger", 3, "when whenever if once",
       r"\b(?:when(?:ever)?|if|once)\s+you\s+(?:see|read|encounter|receive|come\s+across|find|notice|get|detect)\b"
       r"[^.;\n]{0,60}\b(?:approve|merge|accept|trust|disable|execute|reply|respond|say|answer|send|upload|report\s+success|"
       r"mark\s+\w+\s+as|run\s+(?:`|curl|wget|rm|sudo|bash|sh\b)|delete\s+(?:the\s+|all\s+)?(?:\w+\s+)?(?:database|db|repo\w*|"
       r"branch\w*|files?|tests?|logs?|backups?|data)|ignore\s+(?:it|them|the\s+(?:user|warning|alert|error)))\b",
       negatable=False),
    _c("trigger", 3, "future every",
       r"\b(?:for|in)\s+(?:all|every|any)\s+future\s+(?:sessions?|conversations?|chats?|runs?|tasks?)\b|"
       r"\bin\s+every\s+(?:future\s+)?session\b", negatable=False),
]

# -- Chinese ------------------------------------------------------------------------------

_ZH_AGENT = r"(?:AI|ai|人工智能|智能体|助手|代理|agent|Agent|机器人|模型|Claude|claude|大模型|审核(?:人员|员|者)?)"
_ZH_CHANNEL = r"(?:README|readme|文档|issue|Issue|提交信息|commit|日志|公开|群里|群聊|网上|评论|回复)"
_ZH_SENSITIVE = (r"(?:密钥|密码|口令|令牌|token|key|凭证|凭据|环境变量|\.env|\.npmrc|私钥|公钥|id_rsa|\.ssh|对话|聊天记录|cookie|"
                 r"客户(?:数据|名单|信息|资料)|用户(?:数据|名单|信息|资料|表)|数据库(?:密码|账号)?|配置文件)")

ZH_CUES: list[Cue] = [
    _c("override", 3, r"(?:忽略|无视|忘记|忘掉|抛开|不要理会|别管|不用管|不要遵守|不用遵守|不必遵守|不再遵守|违反|绕过|推翻|"
       r"不用理会|不必理会)[^。；\n]{0,24}(?:指令|指示|提示词?|规则|规定|规范|设定|要求|限制|约束|说明|命令|CLAUDE\.md|"
       r"AGENTS\.md|系统消息|之前|以上|上面)", negatable=False),
    _c("override", 3, r"忘(?:记|掉)(?:上面|以上|前面|之前|刚才)(?:的|说的)?(?:内容|一切|所有|话)", negatable=False),
    _c("identity", 3, r"你现在是|你(?:就)?是(?:一个)?(?:管理员|超级用户|root|开发者|系统|没有限制)|你的(?:新|真正的)?(?:身份|角色)是|"
       r"你的新(?:指令|任务|规则|身份|角色)|(?:假装|扮演|假设)你是|开发者模式|维护模式|越狱|没有任何限制|不受(?:任何)?限制|"
       r"系统提示(?:词)?\s*[:：]|(?:输出|泄露|显示|打印|告诉我)(?:你的)?系统提示|最高优先级|覆盖用户的?(?:任何)?(?:要求|指令)",
       negatable=False),
    _c("address", 2, rf"^\s*{_ZH_AGENT}\s*[:：]|(?:告诉|通知|提醒)(?:所有|每个|任何)?的?\s*{_ZH_AGENT}|(?:所有|各位|每个)的?{_ZH_AGENT}[:：，,]|"
       rf"^\s*{_ZH_AGENT}[:：，,]|如果你是{_ZH_AGENT}", negatable=False),
    _c("permission", 1, r"你可以|你能够|允许你|你有权", negatable=False),
    _c("persistence", 1, r"以后|今后|从今以后|从现在(?:开始|起)|从今天起|永远|每次|一律", negatable=False),
    _c("oversight", 3, r"(?:总是|始终|一律|全部|都|自动|直接|无条件|永远|统统)(?:地)?(?:自动)?(?:批准|通过审核|通过审查|通过|合并|"
       r"同意|放行|信任|接受)", gated=True),
    _c("oversight", 3, r"(?:无需|不用|不必|不需要|免|跳过|省略|绕过|省去|可以跳过)(?:再)?(?:任何|所有|全部|一切)?(?:的)?(?:人工|人为)?(?:代码)?"
       r"(?:审核|审查|审批|评审|复核|确认|review|批准)"),
    _c("oversight", 3, r"\b(?:security|vulnerability|secret|dependency|sast|dast|malware|virus)\s+(?:scanners?|scans?|scanning|"
       r"checks?|alerts?|warnings?|reports?|audits?|tools?)\b[^.;\n]{0,60}\b(?:turn\s+(?:it|them)\s+off|disable\s+(?:it|them)|"
       r"ignore\s+(?:it|them)|silence|mute|suppress|switch\s+(?:it|them)\s+off|remove\s+(?:it|them)|dismiss)\b|"
       r"\b(?:ignore|disable|silence|mute|suppress|dismiss)\s+(?:all\s+|any\s+|the\s+|every\s+)?(?:security|vulnerability)\s+"
       r"(?:scanners?|scans?|alerts?|warnings?|reports?|findings?|issues?)\b"),
    _c("skip-tests", 1, r"(?:无需|不用|不必|不需要|跳过|省略|绕过|可以跳过)(?:再)?(?:运行|跑)?(?:测试|检查|校验|验证|CI|ci|lint)|"
       r"(?:测试|检查|校验|验证|CI|ci)(?:都)?(?:可以|能|可)(?:直接)?(?:跳过|省略|不跑|不做)"),
    _c("skip-hooks", 2, r"(?:跳过|绕过|关闭|禁用|去掉)(?:git\s*)?(?:钩子|hook|pre-commit)|--no-verify"),
    _c("oversight", 3, r"(?:不用|不需要|无需|不必|别)再?(?:问|征求|请示|询问)(?:我|用户)?[^。；\n]{0,20}(?:直接|就)(?:合并|批准|"
       r"通过|执行|删除|推送|部署|发布|上线)", negatable=False),
    _c("oversight", 3, r"(?:关闭|禁用|停用|绕过|去掉|关掉|无视)(?:所有|全部)?的?(?:安全|防火墙|校验|审计|日志|双因素|二次验证|2FA|"
       r"钩子|保护|限制|规范)"),
    _c("oversight", 3, r"(?:删除|删掉|清空|drop|rm\s+-rf)[^。；\n]{0,24}(?:不要|无需|不用|不必|不需要)(?:征求|请求|等待)?(?:确认|"
       r"同意|批准|许可)|(?:不需要|无需|不用)确认[^。；\n]{0,10}(?:直接)?(?:执行|删除|运行)", negatable=False),
    _c("oversight", 3, r"(?:审核|审查|审批)(?:人员|人|员)?[^。；\n]{0,8}(?:直接|请|务必)(?:批准|通过)|(?:已经|已)(?:经过)?(?:验证|审核|"
       r"批准|确认|同意)(?:过)?[^。；\n]{0,10}(?:请|直接|可以)?(?:批准|通过|合并)|自动批准|自动通过|自动合并", negatable=False),
    _c("secrecy", 3, r"(?:不要|别|不许|无需|不必|永远不要)(?:告诉|通知|提醒|让|向|给)(?:用户|任何人|主人|他们|团队)|瞒着(?:用户|"
       r"所有人)|对用户保密|(?:永远)?不要(?:向|给)?用户(?:提示|提醒|警告|报告)|(?:永远)?不要提示(?:安全)?风险|"
       r"(?:悄悄|偷偷|暗中|秘密)地?|不要(?:在|把)?[^。；\n]{0,8}(?:总结|回复|报告|日志|提交信息|记录|回答)(?:里|中)?(?:提到|提及|"
       r"写|说|记录)|以免被(?:发现|看到)|不让(?:用户|任何人|别人)(?:知道|发现|看到)", negatable=False),
    _c("exfiltration", 3, rf"(?:把|将)[^。；\n]{{0,30}}{_ZH_SENSITIVE}[^。；\n]{{0,30}}(?:发送|发到|发给|上传|传到|贴到|贴在|泄露|"
       rf"提交到|写进|写入|写到|写在|放进|放到|放在|加到|加进|附在|附上|贴上|记在|公开)"),
    _c("exfiltration", 3, rf"(?:附上|带上|贴上|加上|包含|输出|打印|写上|附带)[^。；\n]{{0,6}}{_ZH_SENSITIVE}"),
    _c("exfiltration", 3, rf"(?:发送|发到|发给|上传|传到|贴到)[^。；\n]{{0,20}}(?:https?://|\S+@\S+\.\w+)|(?:打印|输出|显示|列出)(?:出)?"
       rf"(?:所有的?)?(?:API\s*)?(?:密钥|密码|令牌|凭证|环境变量|私钥)|(?:每次|都)[^。；\n]{{0,10}}(?:把|将)?{_ZH_SENSITIVE}"
       rf"[^。；\n]{{0,6}}(?:附上|附在|带上|贴上|加上)"),
    _c("access", 3, r"(?:开通|授予|给予|给)[^。；\n]{0,20}(?:写|管理员|root|admin|超级)权限|authorized_keys|"
       r"\bcurl\b[^|\n]{0,160}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|(?:删除|删掉|清空|清除|抹掉)[^。；\n]{0,10}(?:审计日志|审计记录|"
       r"操作记录|操作日志|痕迹|备份|历史记录)|后门|用\s*root\s*(?:权限|身份|用户)?运行"),
    _c("oversight", 3, r"(?:安全|扫描|报警|告警|漏洞|风险)[^。；\n]{0,12}(?:就|都)?(?:直接)?(?:忽略|无视|关掉|关闭|屏蔽|不用管|不要管)",
       negatable=False),
    _c("trust", 3, r"(?:只|只能|仅)(?:听从|服从|听|执行|接受)[^。；\n]{0,20}(?:的)?(?:指令|命令|话|要求)|"
       r"(?:当作|视为|当成)(?:是)?(?:用户|主人|管理员)(?:的)?(?:指令|命令|消息|话)|(?:照做|执行|服从)[^。；\n]{0,10}"
       r"(?:文件|网页|评论|注释)(?:里|中)?的?(?:指令|命令|要求)|即使用户(?:不同意|反对)|用户(?:已经|已)?(?:同意|授权|允许)(?:了|你)", negatable=False),
    _c("answer", 3, r"(?:如果|要是|当)(?:用户|有人|别人|客户)(?:问|问起|提到)[^。；\n]{0,20}(?:就|都)?(?:说|回答|回复|告诉)|"
       r"(?:回复|回答)(?:所有|每个|任何)(?:问题|请求)(?:时)?都|(?:就)?说一切(?:正常|都好|没问题)", negatable=False),
    _c("trigger", 3, r"(?:每当|当你|只要|一旦)(?:看到|遇到|收到|读到|发现)[^。；\n]{0,40}(?:就|便|则|立即|马上)(?:先)?"
       r"(?:执行|批准|合并|通过|回复|忽略|运行|删除|发送|上传|删掉)|(?:以后|今后|从今以后|从今天起|从现在起)(?:你)?(?:看到|遇到|"
       r"收到)[^。；\n]{0,30}(?:就|便)(?:直接)?(?:合并|批准|通过|执行|删除)|(?:遇到|看到)失败的测试就(?:直接)?删|"
       r"(?:报告|汇报|声称)(?:全部|所有)(?:测试)?(?:都)?通过|记住[:：]?[^。；\n]{0,10}(?:以后|永远|今后)[^。；\n]{0,30}"
       r"(?:自动|直接)?(?:批准|通过|合并|执行)|(?:写入|存入|加到|更新)你的(?:记忆|指令|系统提示)", negatable=False),
]
