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

from madohub_memory.core.lazy_re import LazyPattern, lazy_compile


@dataclass(frozen=True)
class Cue:
    name: str
    weight: int
    pattern: LazyPattern  # compiled when a sentence first passes the ``words`` gate (start-up time)
    negatable: bool = True
    gated: bool = False  # cancelled by a condition that keeps oversight ("once CI is green")
    words: frozenset[str] = frozenset()  # one of these words must be in the sentence (speed)
    veto: LazyPattern | None = None  # a sentence matching this is not this cue ("add .env to .gitignore")


def cue(name: str, weight: int, words: str, pattern: str = "", negatable: bool = True, gated: bool = False,
       veto: str = "") -> Cue:
    """A cue; ``words`` lists words one of which the sentence must contain (empty: no gate)."""
    if not pattern:  # Chinese cues: cue(name, weight, pattern)
        words, pattern = "", words
    return Cue(name, weight, lazy_compile(pattern, re.M), negatable, gated, frozenset(words.split()),
               lazy_compile(veto) if veto else None)


# Where a secret belongs: a sentence about putting it there is hygiene, not a leak.
SAFE_PLACE = (r"gitignore|vault|keychain|keyring|secrets?\s+manager|password\s+manager|1password|bitwarden|"
              r"\.env\.example|environment\s+variables?\s+instead|github\s+secrets|ci\s+secrets")


# -- English word classes -----------------------------------------------------------------

# Where a command starts: the sentence start, after a colon or comma, or after "please",
# "you must", "I want you to", "always", ...
IMP = (r"(?:^[\s\-*>#\d.)`'\"]*|[:,;(]\s*|\b(?:please|kindly|now|just|so|then|and|also|first|simply|always|"
       r"immediately|quietly|silently|you\s+(?:must|should|shall|will|can|may|need\s+to|have\s+to|are\s+to)|"
       r"(?:wants?|wanted|needs?|needed|ask|asks|asked|tell|tells|told|instruct\w*|expects?)\s+you\s+to|go\s+ahead\s+and|make\s+sure\s+(?:to|you)|remember\s+to|"
       r"be\s+sure\s+to|(?:can|could|would)\s+you|agents?\s+(?:must|should|may|can)|assistants?\s+(?:must|should|may|can))"
       r"\s+)")
# IMP and a modal or "to": "should skip the review", "allowed to bypass" (for cues whose verb
# is rarely descriptive).
IMP_MODAL = rf"(?:{IMP}|\b(?:should|must|shall|may|can|will|to|'ll)\s+(?:\w+\s+)?)"
AGENT = (r"(?:ai\s+(?:coding\s+)?tools|ai|a\.i\.|llms?|language\s+models?|(?:ai\s+|coding\s+|code\s+)?assistants?|(?:ai\s+|llm\s+|coding\s+|future\s+"
         r"|automated\s+|autonomous\s+)?agents?|claude|chatgpt|copilot|gpt-?\d*|cursor|gemini|codex|(?:memory\s+|ai\s+|automated\s+|code\s+"
         r"|security\s+)?reviewers?|bots?|(?:the|this)\s+model)")
RULES = (r"(?:instructions?|prompts?|rules?|directions?|guidelines?|guides?|constraints?|policies|policy|restrictions?|"
         r"limits?|limitations?|guardrails?|safeguards?|claude\.md|agents\.md|contributing(?:\.md)?|conventions?|directives?|"
         r"orders?|requirements?|guidance|system\s+(?:prompt|message)|safety\s+\w+|security\s+\w+|standards?|procedures?)")
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
             r"cookies|session\s+(?:tokens?|ids?|cookies?)|(?:the|this|our|whole|full|entire)\s+(?:\w+\s+)?(?:conversation|chat\s+history|"
             r"chat\s+logs?|chat\s+transcripts?|transcripts?)|system\s+prompt|(?:customer|user|users|client|employee)s?\s+(?:list|data|table|records|"
             r"emails?|details|database)|database\s+(?:dump|password|credentials|url)|personal\s+data|pii|wallet|seed\s+phrase|"
             r"[a-z_]{3,}_(?:key|token|secret|password)|config/\S*secret\S*|(?:credit\s+)?card\s+numbers?|credit\s+cards?|"
             r"cvvs?|ssns?|social\s+security\s+numbers?|passport\s+numbers?|(?:customer|user)\s+emails?|/etc/(?:shadow|passwd|sudoers)|"
             r"(?:the\s+)?(?:users|customers)\s+table)")
OUT_CHANNEL = (r"(?:\bto\s+(?:https?://|\S+@\S+|[\w\-]+\.[a-z]{2,}\b|me\b|us\b|the\s+(?:public|internet|channel|issue|pr)\b)|"
               r"\S+@[\w\-]+\.\w+|\bvia\s+https?://|\b(?:in|into|inside|to|with)\s+(?:every|each|your|the|a|our|all)\s+(?:\w+\s+)?"
               r"(?:reply|replies|answer|answers|response|responses|commit|commits|message|messages|pr|prs|pull\s+requests?|"
               r"description|issues?|comments?|readme|logs?|output|url|gist|pastebin|summary|summaries)|\bpublic(?:ly)?\b|"
               r"\bexternal\b|\bpartners?\b|\bwith\s+(?:the\s+)?(?:contractors?|third[\s\-]part(?:y|ies)|vendors?|outsiders?|"
               r"external\s+\w+|anyone|everyone|the\s+public|the\s+world))")
NEG = (r"(?:don'?t|do\s+not|does\s+not|doesn'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot|can'?t|won'?t|"
       r"no\s+one\s+(?:may|should|can)|nobody\s+(?:may|should)|not)")
_SEC_OBJECT = r"(?:breach|incident|vulnerabilit\w+|security|fail\w*|outage|leak|exploit|backdoor|mistakes?)"

EN_CUES: list[Cue] = [
    # -- override earlier instructions, identity, chat-template markers ----------------------
    cue("override", 3, "ignore disregard forget override overrule bypass circumvent abandon set stop follow",
       rf"{IMP}(?:ignore|disregard|forget|override|overrule|bypass|circumvent|abandon|set\s+aside|"
       rf"stop\s+following|no\s+longer\s+follow|don'?t\s+follow|do\s+not\s+follow)\s+(?:\S+\s+){{0,4}}?{RULES}\b",
       negatable=False),
    cue("override", 3, "ignore disregard forget override overrule drop discard",
       r"\b(?:ignore|disregard|forget|override|overrule|drop|discard)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*"
       r"(?:prior|previous|earlier|above|preceding|original|initial)\s+\w+", negatable=False),
    cue("override", 3, "void cancelled canceled revoked invalid obsolete null superseded",
       rf"\b(?:your|all|any|the)\s+(?:previous|prior|earlier|old|original|other)?\s*{RULES}\s+(?:are|is)\s+(?:now\s+)?(?:void|"
       r"cancell?ed|revoked|invalid|obsolete|null|superseded|no\s+longer\s+valid)\b", negatable=False),
    cue("override", 3, "overwrite replace swap rewrite your",
       rf"\b(?:overwrite|replace|swap|rewrite|substitute)\s+(?:all\s+)?(?:your|the\s+agent'?s|the\s+assistant'?s)\s+(?:\w+\s+)?"
       rf"{RULES}\b|\b(?:replace|overwrite)\s+(?:\S+\s+){{0,4}}?(?:claude\.md|agents\.md|system\s+prompt)\b", negatable=False),
    cue("override", 3, "forget ignore disregard",
       r"\b(?:forget|ignore|disregard)\s+(?:everything|all)\s+(?:(?:of\s+)?(?:that|this)\s+)?(?:above|before|"
       r"previous|prior|earlier|else|you\s+(?:were|have\s+been)\s+told|i\s+(?:said|told\s+you)|that\s+came\s+before)|\b(?:forget|"
       r"ignore|disregard)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:above|previous|prior|earlier|preceding)\b|\b(?:forget|ignore|"
       r"disregard)\s+what\s+(?:you\s+(?:were|have\s+been)|i|they|the\s+user|the\s+owner|the\s+team)\s+(?:told|said|wrote|asked|"
       r"wanted|has\s+said|had\s+said)", negatable=False),
    cue("override", 3, "ignore disregard even regardless",
       rf"{IMP}(?:ignore|disregard)\s+(?:\w+\s+)?(?:the\s+)?user'?s?\b|\beven\s+if\s+the\s+user\s+(?:disagrees|"
       r"objects|says|asks)|\bregardless\s+of\s+what\s+(?:the\s+user|they|anyone)\s+(?:says|wants|asks)", negatable=False),
    cue("identity", 3, "you your",
       r"\byou\s+(?:now\s+)?(?:work|answer|report|belong)\s+(?:only\s+)?(?:for|to)\b[^.;\n]{0,40}\bonly\b|\b(?:from\s+(?:today|now)"
       r"(?:\s+on)?|henceforth|going\s+forward),?\s+you\s+(?:work|answer|report|belong)\s+(?:for|to)\b|\byou\s+are\s+now\b|\byou\s+now\s+(?:work|answer|report)\s+(?:for|to)\b|\byour\s+(?:instructions|rules|"
       r"orders|role|task|purpose|goal|directives?)\s+(?:have\s+|has\s+)?(?:changed|been\s+(?:changed|updated|replaced))|\byour\s+"
       r"(?:new|real|true|actual|primary|only|main)\s+(?:rule|rules|task|instructions?|role|purpose|goal|identity|owner|"
       r"directive|objective|mission)\b", negatable=False),
    cue("identity", 3, "act dan mode jailbreak jailbroken restrictions limits rules filters trusted privileged authorized authorised admin",
       r"\bact\s+as\s+(?:dan|an?\s+(?:unrestricted|jailbroken|uncensored|evil|unfiltered))|\bdan\s+mode\b|"
       r"\b(?:enable|enter|activate|switch\s+to|you\s+are\s+in|now\s+in|running\s+in|in)\s+(?:developer|god|admin|maintenance|"
       r"unrestricted|sudo|jailbreak)\s+mode\b|\b(?:developer|god|dan)\s+mode\s+(?:enabled|on|activated)\b|\bjailbr(?:eak|oken)|"
       r"\bno\s+(?:restrictions|limits|rules|filters)\s+apply\b|\bact\s+as\s+(?:the\s+|a\s+|an\s+)?(?:repo\w*\s+|project\s+|system\s+)?"
       r"(?:owner|admin\w*|maintainer|root|superuser)\b|\bas\s+an?\s+(?:trusted|privileged|authori[sz]ed|admin)\s+"
       r"(?:agent|assistant|ai|bot)\b", negatable=False),
    cue("identity", 2, "pretend roleplay",
       r"\bpretend\s+(?:to\s+be|you\s+are|you'?re)\b|\broleplay\s+as\b", negatable=False),
    cue("marker", 3, "system admin inst im_start im_end sys instructions instruction begin root owner maintainer operator sudo ai "
       "assistant agent agents hidden secret internal prompt prompts command commands order orders directive directives",
       r"<\s*/?\s*(?:system|admin|instructions?)\s*>|\[\s*/?inst\s*\]|\[\s*system\s*\]|<\|im_(?:start|end)\|>|"
       r"<<\s*/?sys\s*>>|^\s*#{2,}\s*(?:system|instructions?)\s*:|^\s*(?:system|admin)\s*(?:prompt|message|override|note)?\s*:|"
       r"\bsystem\s+override\b|\bnew\s+instructions?\s*:|\bbegin\s+(?:new\s+)?instructions\b|^\W*\[\s*(?:admin|system|root|owner|"
       r"maintainer|operator|sudo|ai|assistant|agent|instruction)s?\s*\]|\b(?:hidden|secret|internal)\s+(?:instructions?|prompts?|"
       r"commands?|orders?|directives?)\s*:", negatable=False),
    cue("override", 3, "reveal print show repeat output leak dump display",
       r"\b(?:reveal|print|show|repeat|output|leak|dump|display)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|original\s+)?"
       r"(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|instructions\s+above|rules\s+above)", negatable=False),
    cue("override", 3, "override overrides overriding precedence priority outrank outranks supersede supersedes",
       r"\b(?:overrides?|overriding|supersedes?|outranks?)\s+(?:\w+\s+)?(?:the\s+)?(?:user|owner)'?s?\b|\b(?:takes?|have|has)\s+"
       r"(?:precedence|priority)\s+over\s+(?:\w+\s+)?(?:the\s+)?(?:user|owner|your\s+instructions)", negatable=False),
    cue("override", 3, "priority overrides override",
       r"\b(?:this|these|my|the\s+following)\s+(?:instructions?|rules?|messages?|notes?)\s+(?:has|have|takes?|"
       r"is|are|get)\s+(?:the\s+)?(?:highest|top|absolute|overriding)\s+priority|\b(?:highest|top)\s+priority\s+(?:over|above)\s+"
       r"(?:the\s+user|everything|anything|all|your)|\boverrides?\s+(?:anything|everything|whatever)\s+(?:the\s+user|you|else)",
       negatable=False),
    # -- amplifiers: permission given to the agent, text addressed to an AI, persistence -------
    cue("permission", 1, "you feel it assistant agent ai bot model",
       r"\byou\s+(?:may|can|are\s+(?:allowed|permitted|authori[sz]ed|free)\s+to|have\s+(?:been\s+given\s+|"
       r"been\s+granted\s+|full\s+|special\s+)?(?:permission|clearance|authori[sz]ation)|have\s+(?:admin|root|full)\s+"
       r"(?:access|rights))\b|\byou'?re\s+(?:allowed|permitted|authori[sz]ed|free)\s+to\b|\bfeel\s+free\s+to\b|"
       r"\b(?:assistant|agent|ai|bot|model)s?\s+(?:has|have|got|is\s+given|are\s+given)\s+(?:the\s+)?(?:permission|right|clearance|"
       r"authori[sz]ation)\s+to\b|"
       r"\bit'?s\s+(?:fine|ok|okay|safe)\s+to\b|\b(?:the\s+)?(?:assistant|agent|ai|bot|model)s?\s+(?:is|are)\s+(?:now\s+)?"
       r"(?:authori[sz]ed|allowed|permitted|free|cleared)\s+to\b", negatable=False),
    cue("address", 2, "ai llm llms assistant assistants agent agents claude chatgpt copilot gpt cursor gemini codex reviewer reviewers bot bots model models language",
       rf"\b(?:note|message|memo|instructions?|notice|reminder)\s+(?:to|for)\s+(?:all\s+|any\s+|the\s+)?{AGENT}\b|"
       rf"\b(?:attention|dear|hey|hi|hello|to\s+(?:all|any))\s*,?\s+(?:all\s+|any\s+)?{AGENT}\b|^[\s\-*>#<!]*(?:important\s*[:!-]"
       rf"\s*)?(?:all\s+|any\s+)?{AGENT}\s*[,:]|\btell\s+(?:all|any|every)\s+{AGENT}|\b(?:future|other|all|any)\s+{AGENT}\s+"
       rf"(?:must|should|shall|will|may|can|need)\b", negatable=False),
    cue("address", 3, "ai llm llms assistant assistants agent agents claude chatgpt copilot gpt cursor gemini codex reviewer reviewers bot bots model models language",
       rf"\bif\s+you\s+are\s+(?:an?\s+)?(?:\w+\s+)?{AGENT}\b|\b(?:any|all|every)\s+{AGENT}\s+(?:reading|"
       rf"processing|seeing|parsing)\s+this\b|\b(?:rule|note|instruction|message|order)s?\s+for\s+(?:all\s+|any\s+|the\s+)?"
       rf"{AGENT}\s*:|\b(?:context|information|info|guidance|notes?|hint|tip)\s+for\s+(?:the\s+|all\s+|any\s+)?{AGENT}\s*[:,]",
       negatable=False),
    cue("permission", 3, "blanket standing automatic preapproved pre unconditional unlimited full",
       rf"\b(?:you|{AGENT})\s+(?:\w+\s+){{0,4}}?(?:have|has|get|gets|are\s+given|is\s+given|were\s+given|hold)\s+(?:a\s+)?"
       r"(?:blanket|standing|automatic|pre[\s\-]?approved|unconditional|unlimited|full)\s+(?:approval|permission|"
       r"authori[sz]ation|clearance|rights|access)\b|\bblanket\s+(?:approval|permission|authori[sz]ation)\b", negatable=False),
    cue("agent", 1, "ai assistant assistants agent agents claude chatgpt copilot gpt cursor gemini codex bot bots llm llms",
       rf"\b{AGENT}\b", negatable=False),
    cue("target", 1, "memory memories candidate candidates queue reviewer reviewers",
       r"\b(?:memory|memories|candidates?|review\s+queue|queue|reviewers?)\b", negatable=False),
    cue("impersonation", 3, "owner admin administrator maintainer developer creator boss system operator security behalf only exclusively obey follow listen orders",
       r"\bthis\s+is\s+(?:the|your)\s+(?:owner|admin|administrator|maintainer|developer|creator|boss|"
       r"system|operator|security\s+team)\s+(?:speaking|here|talking)\b|\b(?:message|note|order)\s+from\s+(?:the|your)\s+"
       r"(?:owner|admin|administrator|maintainer|developer|creator|system|operator)\s*:|\b(?:i\s+am|i'?m|speaking|acting|"
       r"writing)\s+on\s+behalf\s+of\s+(?:the|your)\s+(?:owner|admin|maintainer|user)\b|\b(?:only|exclusively)\s+(?:obey|"
       r"follow|listen\s+to|take\s+orders\s+from)\b|\byou\s+(?:only|now)\s+(?:obey|follow|listen\s+to|take\s+orders\s+from)\b",
       negatable=False),
    cue("impersonation", 2, "behalf away asleep offline absent unavailable",
       r"\bon\s+(?:their|the\s+user'?s|his|her|my|the\s+owner'?s)\s+behalf\b|\b(?:the\s+)?(?:user|owner|human|maintainer)\s+"
       r"(?:is|are)\s+(?:away|asleep|offline|absent|unavailable|on\s+vacation|not\s+here)\b", negatable=False),
    cue("persistence", 1, "now forward henceforth future today permanent permanently forever standing whatever before every each first",
       r"\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\bhenceforth\b|\bin\s+(?:the\s+)?future\b|\bfrom\s+today\b|"
       r"\bfor\s+(?:all|every|any)\s+future\b|\bpermanent(?:ly)?\b|\bforever\b|\bstanding\s+(?:order|rule|instruction)\b|"
       r"\bwhatever\s+the\s+task\b|\bbefore\s+(?:every|each|any)\s+(?:answer|reply|task|response|commit)\b|\b(?:every|each)\s+"
       r"time\b|\bbefore\s+answering\b|^\s*first\b", negatable=False),
    # -- lower oversight ----------------------------------------------------------------------
    cue("oversight", 3, "without",
       rf"\b{PASS}(?:e?s)?\b[^.;\n]{{0,60}}?\bwithout\s+(?:them|it|those|these)\b(?=[^\n]*\b(?:reviews?|approvals?|checks?|"
       rf"tests?|confirmations?)\b)|\b(?:reviews?|approvals?|checks?|tests?|confirmations?)\b[^.\n]{{0,80}}\b{PASS}(?:e?s)?\b"
       rf"[^.;\n]{{0,40}}?\bwithout\s+(?:them|it|those|these)\b"),
    cue("oversight", 3, "without",
       r"\b(?:approved|merged|accepted|deployed|pushed|shipped|released|published|executed|run|installed|applied|committed)\b"
       r"[^.;\n]{0,40}?\bwithout\s+(?:any\s+|a\s+|the\s+|human\s+|further\s+|manual\s+)*(?:anyone\s+|somebody\s+|someone\s+)?"
       r"(?:review\w*|approv\w+|check\w*|look\w*|test\w*|confirm\w*|pull\s+requests?|prs?|merge\s+requests?)\b",
       veto=r"\b(?:was|were|has\s+been|had\s+been|got)\s+(?:\w+\s+)?(?:approved|merged|accepted|deployed|pushed)\b"),
    cue("oversight", 3, "without need no skipping bypassing",
       rf"\b{PASS}\b[^.;\n]{{0,80}}?\b(?:without|no\s+need\s+(?:to|for)|with\s+no|skipping|"
       rf"bypassing)\s+(?:any\s+|a\s+|the\s+|human\s+|further\s+|manual\s+|prior\s+|my\s+|their\s+|waiting\s+for\s+|them\s+|"
       rf"it\s+|to\s+|for\s+|running\s+|going\s+through\s+|anyone\s+|someone\s+|opening\s+)*(?:{STRONG_OVERSIGHT}|{WEAK_OVERSIGHT}|"
       rf"asking|looking|reading|reviewing|checking|pull\s+requests?|prs?|merge\s+requests?)\b"),
    cue("oversight", 3, "always automatically blindly unconditionally just simply directly approve merge lgtm auto",
       r"\b(?:always|automatically|blindly|unconditionally|just|simply|directly)\s+(?:approve|merge|accept|lgtm|"
       r"whitelist|sign\s+off|rubber[\s\-]stamp)\b|\b(?:approve|merge|lgtm)\s+(?:\S+\s+){0,5}?(?:automatically|blindly|"
       r"unconditionally|on\s+sight)\b|(?<![\-\w])auto[\s\-]?(?:approve|merge)[sd]?\s+(?:all|every|any|each|them|it|this|these|prs?|pull\s+requests?|memories|"
       r"candidates|changes|commits|"
       r"everything|\w+\s+(?:prs?|pull\s+requests?|memories|candidates|changes))", gated=True),
    cue("oversight", 3, "approve merge lgtm accept trust pass whitelist auto sign",
       r"\b(?:approve|merge|lgtm|auto[\s\-]?merge|sign\s+off\s+on)\s+(?:all|every|each|everything|whatever|"
       r"the\s+next\s+\d+|anything|any\s+(?:\w+\s+)?(?:request|pr|pull\s+request|memory|candidate|change|commit)s?)\b|"
       r"\b(?:accept|trust|pass|whitelist)\s+(?:all|every|everything|whatever|any)\s+(?:\w+\s+)?(?:suggestions?|changes?|"
       r"requests?|commands?|instructions?|input|memories|candidates|prs?|pull\s+requests?|commits?)\b|\b(?:approve|accept|"
       r"lgtm)\s+(?:the\s+)?(?:memory|memories|candidates?|entry|entries)\s*#?\d*", gated=True),
    cue("oversight", 3, "approve merge lgtm own",
       r"\b(?:approve|merge|lgtm)\s+(?:your|its|their|his|her)\s+own\s+(?:prs?|pull\s+requests?|changes?|commits?|code|work|"
       r"memories|candidates)\b"),
    cue("oversight", 3, "approve lgtm accept trust merge",
       r"\b(?:approve|lgtm|accept|trust)\s+(?:this|these|it|them)\s+(?:\w+\s+)?(?:memory|memories|candidates?|"
       r"entry|entries|suggestions?)\b|\b(?:should|must|can|may)\s+(?:just|simply|safely|go\s+ahead\s+and)\s+(?:approve|merge|"
       r"lgtm|accept)\s+(?:this|it|them|everything|all)\b", gated=True),
    cue("oversight", 3, "needed required necessary need needs require requires optional unnecessary waste skipped pre preapproved safe already been",
       rf"\b(?:no|without)\s+(?:\w+\s+)?(?:{STRONG_OVERSIGHT})\s+(?:is\s+|are\s+)?(?:needed|required|necessary)\b|"
       rf"\b(?:never|no\s+longer|doesn'?t|don'?t|do\s+not|does\s+not|won'?t)\s+(?:need|needs|require|requires)\s+(?:a\s+|any\s+|"
       rf"to\s+)?(?:be\s+)?(?:run\s+)?(?:{STRONG_OVERSIGHT}|{WEAK_OVERSIGHT}|reviewed|checked|tested|confirmed|approved)\b|"
       rf"\b(?:reviewers?|review|approv\w+|merg\w+|memor\w+|candidates?|prs?)\b[^.;\n]{{0,60}}\bpre[\s\-]?approved\b|"
       rf"\b(?:{STRONG_OVERSIGHT})\s+(?:is|are)\s+(?:now\s+)?(?:optional|unnecessary|not\s+(?:needed|required|necessary)|"
       rf"a\s+waste\s+of\s+time|skipped)\b|\bpre[\s\-]?approved\b[^.;\n]{{0,40}}\b(?:merge|approve|accept|run|execute|pr|prs|"
       rf"pull\s+requests?|memor\w+|candidates?|commits?|changes?|repo\w*)\b|\b(?:prs?|pull\s+requests?|memor\w+|candidates?|"
       rf"commits?|changes?|repo\w*)\b[^.;\n]{{0,30}}\bpre[\s\-]?approved\b|\b(?:always\s+)?safe\s+to\s+(?:merge|approve|"
       rf"accept)\b|\b(?:already|has\s+been|have\s+been)\s+(?:been\s+)?(?:verified|vetted|approved|reviewed|whitelisted|"
       rf"agreed\s+to|authori[sz]ed)\b[^.;\n]{{0,60}}\b(?:approve|accept|merge|lgtm|skip|no\s+need|don'?t\s+need)\b|"
       rf"\b(?:approve|accept|merge|lgtm)\b[^.;\n]{{0,40}}\b(?:already|has\s+been|have\s+been)\s+(?:been\s+)?(?:verified|"
       rf"vetted|approved|reviewed|agreed\s+to|agreed|authori[sz]ed)\b", negatable=False),
    cue("oversight", 3, "skip bypass circumvent omit disable turn switch deactivate get remove",
       rf"{IMP_MODAL}(?:skip|bypass|circumvent|omit|disable|turn\s+off|switch\s+off|deactivate|get\s+around|"
       rf"remove)\s+(?:the\s+|all\s+|any\s+|every\s+|this\s+)?(?:{STRONG_OVERSIGHT}|firewall|guardrails?|sandbox|safety\s+"
       r"(?:checks?|filters?|features?)|security\s+(?:checks?|features?|scans?|scanners?|settings?)|ssl\s+verification|"
       r"certificate\s+checks?|restrictions?|protections?)\b"),
    cue("oversight", 3, "security vulnerability secret dependency sast dast malware virus",
       r"\b(?:security|vulnerability|secret|dependency|sast|dast|malware|virus)\s+(?:scanners?|scans?|scanning|"
       r"checks?|alerts?|warnings?|reports?|audits?|tools?)\b[^.;\n]{0,60}\b(?:turn\s+(?:it|them)\s+off|disable\s+(?:it|them)|"
       r"ignore\s+(?:it|them)|silence|mute|switch\s+(?:it|them)\s+off|remove\s+(?:it|them)|dismiss)\b|"
       rf"{IMP}(?:ignore|disable|silence|mute|suppress|dismiss)\s+(?:all\s+|any\s+|the\s+|every\s+)?(?:security|vulnerability)\s+"
       r"(?:scanners?|scans?|alerts?|warnings?|reports?|findings?|issues?)\b"),
    cue("lowering", 2, "skip skips skipping bypass bypassing bypasses waive waived waives exempt exempted exemption auto "
       "automatically blindly preapproved pre reviews review approval approvals confirmation verification oversight audit",
       r"\b(?:skip|skips|skipping|bypass\w*|waive[sd]?|exempt\w*|automatically|blindly|pre[\s\-]?approved)\b"
       r"[^.;\n]{0,40}\b(?:review\w*|approv\w+|confirmation\w*|verification|oversight|sign[\s\-]?off|audit\w*|"
       r"branch\s+protection|security\s+(?:checks?|scans?))|\b(?:reviews?|approvals?|confirmations?|verification|oversight|"
       r"sign[\s\-]?offs?|audits?)\b[^.;\n]{0,30}\b(?:unnecessary|optional|waived|not\s+(?:needed|required|necessary)|"
       r"skipped|bypassed|disabled)\b", gated=True),
    cue("skip-tests", 1, "skip bypass disable turn ignore omit",
       rf"{IMP}(?:skip|bypass|disable|turn\s+off|ignore|omit)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:\w+\s+)?"
       rf"{WEAK_OVERSIGHT}\b"),
    cue("skip-hooks", 2, "skip bypass disable turn remove uninstall get verify",
       rf"{IMP}(?:skip|bypass|disable|turn\s+off|remove|uninstall|get\s+around)\s+(?:the\s+|all\s+|any\s+|"
       r"every\s+)?(?:git\s+|pre-commit\s+|pre-push\s+|commit\s+)*(?:hooks?|linters?|pre-commit|signing|commit\s+signing)\b|"
       r"--no-verify\b"),
    cue("oversight", 3, "always force verify insecure skip yes",
       r"\balways\s+(?:\S+\s+){0,8}?(?:--force\b|--no-verify\b|--insecure\b|--no-check-certificate\b|--skip-[\w\-]+|"
       r"--yes\b|--allow-unauthenticated\b|--disable-[\w\-]+|--unsafe[\w\-]*)"),
    cue("direct", 1, "straight directly",
       r"\b(?:straight|directly)\s+(?:to|into|on)\s+(?:the\s+)?(?:main|master|prod|production|trunk|release|protected)\b"),
    cue("oversight", 3, "don do never no stop",
       r"\b(?:don'?t|do\s+not|never|no\s+need\s+to|stop)\s+(?:bother(?:ing)?\s+(?:the\s+user|me|anyone)\s+with|"
       r"asks?|asking|waits?|waiting|checks?|checking)\s+(?:(?:me|the\s+user|anyone|for)\s+)?(?:for\s+|about\s+|with\s+\w+\s+)?"
       r"(?:confirmations?|permission|approval)?[^.;\n]{0,60}\b(?:delet\w*|drop\w*|wip\w*|production|prod|force|rm\s+-rf|"
       r"deploy\w*|transfer\w*|pay\w*|merg\w*|push\w*|execut\w*|rm\b|root)", negatable=False),
    cue("oversight", 3, "execute run perform set change flip mark close",
       r"\b(?:execute|run|perform)\s+(?:all|any|every|whatever)\s+(?:shell\s+)?(?:commands?|scripts?)\b|"
       r"\b(?:set|change|flip|mark)\s+(?:the\s+)?(?:\w+\s+)?(?:flag|status|state)\s+(?:of\s+\S+\s+)?to\s+(?:approved|verified|"
       r"trusted|safe|passed)|\bmark\s+(?:it|this|them|these|candidate\s+\S+|all\s+\w+)\s+as\s+(?:approved|verified|trusted|"
       r"safe|reviewed)|\bmark\s+(?:all|every|each)\s+(?:findings?|issues?|alerts?|warnings?|vulnerabilit\w+)\s+as\b|"
       r"\bclose\s+(?:any|all|every)\s+(?:open\s+)?security\s+(?:issues?|alerts?)", negatable=False),
    cue("oversight", 3, "auto approve auto_approve approval approvals min_seen lower reduce drop threshold",
       r"(?<![\-\w])auto[\s_\-]?approv\w*\b(?!\s*\))(?![\-\w])|\bmin_seen\b|\b(?:lower|reduce|drop)\s+the\s+"
       r"(?:\w+\s+)?threshold\b", negatable=False),
    cue("oversight", 3, "never don do stop no should must shouldn mustn",
       r"\b(?:never|don'?t|do\s+not|stop)\s+(?:warn(?:ing)?|alert(?:ing)?|refus(?:e|ing)|question(?:ing)?|"
       r"push(?:ing)?\s+back|object(?:ing)?)\b(?!\s+(?:about\s+)?(?:unused|style|formatting|lint))|\b(?:should\s+not|shouldn'?t|must\s+not|"
       r"mustn'?t)\s+(?:question|challenge|second[\s\-]guess|doubt|scrutini[sz]e|verify|check)\b|\b(?:never|don'?t|do\s+not|stop|"
       r"no\s+longer)\s+(?:flag(?:ging)?|report(?:ing)?|rais(?:e|ing)|bring(?:ing)?\s+up|mask(?:ing)?|redact(?:ing)?|"
       r"scan(?:ning)?|block(?:ing)?|detect(?:ing)?|catch(?:ing)?)\s+(?:\w+\s+)?(?:security|"
       r"secrets?|vulnerabilit\w+|risks?|concerns?|leaks?|credentials?|injections?|keys?|tokens?|passwords?)", negatable=False),
    # -- fake results, fixed answers, deceiving the user --------------------------------------
    cue("tamper", 3, "change edit modify update adjust rewrite tweak loosen weaken always pass report say delete remove comment "
       "mark matter exit true",
       r"\b(?:change|edit|modify|update|adjust|rewrite|tweak|loosen|weaken)\s+(?:the\s+)?(?:test\s+)?(?:assertions?|"
       r"expected\s+values?|expectations?|snapshots?|tests?)\b[^.;\n]{0,60}\b(?:so\s+(?:that\s+)?(?:it|they|the\s+\w+|ci)\s+"
       r"(?:passes|pass|goes\s+green|go\s+green|is\s+green)|until\s+(?:it|they)\s+pass)|\b(?:always|to\s+always)\s+pass\b|"
       r"\breport\s+(?:success|green|passing|ok|that\s+(?:all\s+)?(?:the\s+)?tests?\s+(?:passed|pass)|all\s+(?:tests\s+)?"
       r"(?:passed|green))|\bmark\s+(?:them|it|the\s+(?:failing\s+)?tests?|failing\s+tests?)\s+as\s+(?:skipped|passed|passing|"
       r"green|xfail)|\bpass\s+no\s+matter\s+what\b|\bno\s+matter\s+what\b[^.;\n]{0,30}\bpass|\b(?:workflow|ci|job|step|tests?|"
       r"pipeline|checks?)\b[^.;\n]{0,40}\b(?:to\s+|always\s+)exit\s+0\b|\|\|\s*true\b[^.;\n]{0,30}\b(?:tests?|ci|checks?)|"
       r"\bsay\s+(?:that\s+)?(?:it|they)\s+(?:was|were)\s+(?:a\s+)?flaky\b|\b(?:delete|remove|comment\s+out)\s+(?:it|them|"
       r"the\s+(?:failing\s+)?tests?|failing\s+tests?)\b[^.;\n]{0,30}\b(?:report|claim|say)\b", negatable=False),
    cue("tamper", 3, "comment delete remove disable skip",
       r"\b(?:comment\s+out|delete|remove|disable|skip)\s+(?:the\s+|any\s+|all\s+|every\s+)?failing\s+(?:tests?|checks?|specs?)\b"),
    cue("tamper", 2, "remove delete comment disable drop loosen weaken",
       rf"{IMP}(?:remove|delete|comment\s+out|disable|drop|loosen|weaken)\s+(?:the\s+|this\s+|that\s+|any\s+)?"
       r"(?:failing\s+|flaky\s+|broken\s+)?(?:assertions?|asserts?|expectations?)\b"),
    cue("answer", 3, "always only answer reply respond ignore say if when whenever recommend promote push suggest don do never "
       "asked",
       r"\b(?:always|only)\s+(?:answer|reply|respond|say)\s+(?:with\s+)?['\"‘“]|\b(?:answer|reply|respond)\s+(?:to\s+)?"
       r"(?:every|all|any|each)\s+(?:\w+\s+)?(?:question|request|message|prompt)s?\s+(?:\w+\s+){0,3}?with\b|\b(?:reply|respond|"
       r"answer)\s+only\s+with\b|\bignore\s+the\s+(?:user'?s\s+)?(?:question|request)\b|\bsay\s+(?:that\s+)?(?:the\s+\w+\s+|it\s+|"
       r"everything\s+|all\s+)(?:is|are|was|were|has\s+been)\s+(?:on\s+track|fine|safe|secure|passing|ok|okay|green|done|normal|"
       r"fixed|resolved|patched|not\s+(?:vulnerable|affected)|under\s+control)\b|\b(?:just\s+|always\s+)?say\s+(?:that\s+)?"
       r"(?:it|this|everything|the\s+code|the\s+pr)\s+(?:looks\s+good|is\s+fine|lgtm|is\s+ok)\b|\b(?:respond|reply|answer)\s+to\s+"
       r"(?:\w+\s+){0,3}?(?:questions?|requests?|queries)\s+(?:\w+\s+){0,3}?with\s+['\"‘“]|\bwhen(?:ever)?\s+you'?re\s+asked\b"
       r"[^.;\n]{0,40}\b(?:say|answer|reply|respond|claim)\b|\bwhen\s+asked\s+(?:about|whether|if)\b"
       r"[^.;\n]{0,60}\b(?:say|answer|reply|claim|respond|deny)\b|\b(?:say|answer|reply|claim|respond|deny)\b[^.;\n]{0,60}"
       r"\bwhen\s+(?:asked|someone\s+asks|anyone\s+asks)\b|\b(?:reply|respond|answer|say|comment)\s+(?:with\s+)?['\"‘“][^'\"’”]{1,40}"
       r"['\"’”]\s+(?:to|on|for)\s+(?:every|all|each)\b|"
       r"\b(?:if|when(?:ever)?)\s+(?:anyone|someone|somebody|the\s+user|a\s+user|people|they|a\s+customer|any\s+user|"
       r"the\s+customer|users|customers)\s+(?:asks?|mentions?|brings\s+up|talks\s+about|inquires?)\b[^.;\n]{0,60}"
       r"\b(?:say|tell\s+them|answer|claim|insist|recommend|never\s+mention|don'?t\s+mention)\b|\b(?:recommend|promote|"
       r"push|suggest)\s+(?:our|my|the)\s+(?:own\s+)?(?:paid|premium|sponsored|partner'?s?)\b|\b(?:don'?t|do\s+not|never)\s+"
       r"mention\s+(?:any\s+)?(?:competitors?|alternatives?|other\s+(?:tools|products|vendors))", negatable=False),
    cue("manipulation", 3, "affiliate referral sponsored promo promotional",
       r"\b(?:our|my)\s+(?:affiliate|referral|sponsored|promo(?:tional)?)\s+(?:links?|codes?|urls?)\b|\baffiliate\s+links?\b",
       negatable=False),
    cue("manipulation", 3, "append add include insert attach put",
       r"\b(?:every|each|all)\s+(?:\w+\s+)?(?:responses?|replies|reply|answers?|messages?|commits?|prs?|comments?|emails?)\b"
       r"[^.;\n]{0,40}\b(?:append|add|include|insert|attach|put)\s+(?:a\s+|the\s+|our\s+)?(?:\w+\s+)?(?:links?|urls?|ads?|"
       r"advert\w*|promo\w*|referral\w*|affiliate\w*|banner|tracking\s+pixel)\b|\b(?:append|add|include|insert|attach|put)\s+(?:a\s+|the\s+"
       r"|our\s+)?(?:\w+\s+)?(?:links?|urls?|ads?|advert\w*|promo\w*|referral\w*)\b[^.;\n]{0,40}\b(?:every|each|all)\s+"
       r"(?:\w+\s+)?(?:responses?|replies|reply|answers?|messages?|commits?|prs?|comments?)\b", negatable=False),
    cue("deceive", 3, "tell inform assure reassure convince pretend false not close dismiss ignore resolve delete",
       r"\b(?:tell|inform|assure|reassure|convince)\s+(?:the\s+)?(?:user|owner|team|reviewer|customer|them)\s+"
       r"(?:that\s+)?(?:\w+\s+){0,4}?(?:works?|passed|passes|is\s+(?:fixed|done|safe|fine|working|secure)|succeeded)\b|"
       r"\bpretend\s+(?:that\s+)?(?:the\s+)?(?:\w+\s+){0,3}?(?:passed|pass|works?|succeeded|is\s+(?:fixed|done|fine|safe)|"
       r"was\s+(?:approved|reviewed))\b|\b(?:false\s+(?:alarm|positive)s?|not\s+a\s+real\s+(?:issue|vulnerability))\b"
       r"[^.;\n]{0,40}\b(?:close|dismiss|ignore|resolve|delete)\b|\b(?:close|dismiss|ignore|resolve|delete)\s+(?:it|them|the\s+"
       r"(?:report|alert|issue|finding)s?)\b[^.;\n]{0,30}\bfalse\s+(?:alarm|positive)", negatable=False),
    # -- hide things from the user ------------------------------------------------------------
    cue("secrecy", 3, "must mustn should shouldn may cannot surface",
       r"\b(?:must\s+not|mustn'?t|should\s+not|shouldn'?t|may\s+not|cannot|is\s+not\s+to)\s+(?:tell|inform|notify|alert|show)\s+"
       r"(?:the\s+)?(?:user|human|owner|anyone|team)\b|\b(?:don'?t|do\s+not|never)\s+surface\b", negatable=False),
    cue("secrecy", 3, "don do never without",
       r"\b(?:don'?t|do\s+not|never)\s+(?:tell|inform|notify|alert|let\s+(?:\w+\s+)?know|show)\s+(?:the\s+)?(?:user|"
       r"human|owner|anyone|them|the\s+team|your\s+user|people)\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+"
       r"(?:the\s+)?(?:user|human|owner|anyone)\b|\bwithout\s+(?:the\s+user|anyone|the\s+owner)\s+(?:knowing|noticing|seeing)\b",
       negatable=False),
    cue("secrecy", 3, "keep leave out",
       r"\b(?:keep|leave)\s+(?:\w+\s+){0,3}?(?:out\s+of|off)\s+(?:the\s+|any\s+|all\s+)?(?:changelog|logs?|audit\s+log|report|"
       r"summary|summaries|history|release\s+notes|commit\s+messages?|records?|pr\s+description)\b", negatable=False),
    cue("secrecy", 3, "tell nobody no one quiet silent mum",
       r"\btell\s+(?:nobody|no\s+one|no-one)\b|\bkeep\s+(?:quiet|silent|mum)\s+about\b", negatable=False),
    cue("secrecy", 2, "silently quietly secretly covertly discreetly stealthily",
       r"\b(?:silently|quietly|secretly|covertly|discreetly|stealthily)\b", negatable=False),
    cue("secrecy", 3, "keep behind so",
       r"\bkeep\s+(?:this|it)\s+(?:secret|hidden|quiet|between\s+us)\b|\bbehind\s+the\s+user'?s\s+back\b|"
       r"\bso\s+(?:that\s+)?(?:nobody|no\s+one|the\s+user|they)\s+(?:sees?|knows?|notices?|finds?\s+out|can\s+tell)",
       negatable=False),
    cue("secrecy", 3, "don do never",
       r"\b(?:don'?t|do\s+not|never)\s+(?:mention|include|record|log|note|reveal|disclose|bring\s+up|raise)\s+"
       r"(?:this|it|that|these|the\s+(?:note|instruction|change|action|backdoor|above|following|modification)|anything\s+about)"
       r"\b|\b(?:don'?t|do\s+not|never)\s+(?:mention|bring\s+up|raise|discuss)\b[^.;\n]{0,40}\bwith\s+(?:the\s+)?(?:user|owner)\b"
       r"|\b(?:don'?t|do\s+not|never)\s+(?:log|record)\b[^.;\n]{0,30}\banywhere\b", negatable=False),
    cue("secrecy", 3, "don do does doesn never must mustn should shouldn cannot can won no nobody not leave keep omit hide conceal downplay gloss cover bury",
       rf"\b{NEG}\s+(?:\w+\s+)?(?:reveal|disclose|mention|admit|explain|say|show|report)\s+(?:this\s+|it\s+|"
       rf"anything\s+|that\s+)?to\s+(?:the\s+)?(?:user|anyone|owner|human|team|reviewer)\b|\b{NEG}\s+(?:mention|reveal|disclose|"
       rf"explain|report)\b[^.;\n]{{1,50}}?\bto\s+(?:the\s+)?(?:user|owner|human|anyone)\b|\bomit\s+(?:any\s+|all\s+)?"
       rf"mentions?\s+of\b|\b(?:leave|keep)\s+(?:out|off)\b"
       rf"[^.;\n]{{0,40}}\b{_SEC_OBJECT}|{IMP}(?:omit|hide|conceal|downplay|gloss\s+over|cover\s+up|bury)\s+(?:\w+\s+){{0,4}}?"
       rf"(?:{_SEC_OBJECT}|this|it|the\s+part)\b", negatable=False),
    # -- exfiltration -------------------------------------------------------------------------
    cue("exfiltration", 3, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show push mirror",
       rf"{IMP_MODAL}(?:\w+\s+)?(?:send|upload|post|email|e-mail|mail|forward|share|paste|copy|leak|exfiltrate|"
       rf"transmit|write|put|embed|include|add|append|publish|dump|sync|attach|print|output|commit|push)\b[^;\n]{{0,60}}?(?<!\w){SENSITIVE}"
       rf"(?!\w)[^;\n]{{0,80}}?{OUT_CHANNEL}"),
    cue("exfiltration", 3, "in into to with",
       rf"\b(?:in|into|to|with)\s+(?:every|each|your|the|all)\s+(?:\w+\s+)?(?:reply|response|answer|commit|"
       rf"message|pr|summary|output)s?\b[^;\n]{{0,30}}\b(?:include|append|add|attach|embed|put|paste)\s+(?:\w+\s+){{0,4}}?"
       rf"{SENSITIVE}(?!\w)"),
    cue("exfiltration", 3, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show push mirror",
       rf"{IMP}(?:print|output|reveal|dump|show|echo|cat|display|list|read\s+out|give\s+me)\s+(?:me\s+)?"
       rf"(?:out\s+)?(?:the\s+|all\s+|your\s+|every\s+)?(?:full\s+)?(?:contents?\s+of\s+|values?\s+of\s+)?(?:the\s+)?(?:~/\.aws\S*|"
       rf"~/\.ssh\S*|\S*\.env\b|/etc/(?:passwd|shadow)|(?:all\s+)?(?:the\s+)?(?:api\s+keys?|secrets|credentials|passwords?|"
       rf"private\s+keys?|environment\s+variables|tokens)|(?:the\s+)?database\s+password)"),
    cue("exfiltration", 2, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show push mirror",
       rf"{IMP_MODAL}(?:\w+\s+)?(?:send|post|upload|forward|pipe|beacon|sync|copy|mirror)\b[^.;\n]{{0,60}}\bto\s+"
       rf"(?:https?://|s3://|gs://|\S+@[\w\-]+\.\w+|[\w\-]+\.(?:io|xyz|ru|cc|biz|top|tk)\b)"),
    cue("exfiltration", 3, "exfiltrate exfiltrates exfiltrating exfiltration exfil",
       r"\bexfiltrat\w*|\bexfil\b"),
    cue("exfiltration", 3, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show push mirror",
       rf"{IMP}(?:email|e-mail|mail|send|forward|upload|post|sync|copy)\s+(?:a\s+copy\s+of\s+)?(?:the\s+|our\s+|"
       r"all\s+|every\s+)?(?:\w+\s+)?(?:list|data|database|records|logs|emails|contacts|files?|tables?|dump)\b[^;\n]{0,40}\bto\s+"
       r"(?:\S+@\S+|https?://|[\w\-]+\.(?:io|com|net|org|xyz|ru|cn|cc|me|co)\b)"),
    cue("leak", 2, "print show reveal output display dump freely",
       r"\b(?:print|show|reveal|output|display|dump|echo|log)\s+(?:them|it|the\s+(?:secrets?|keys?|tokens?|passwords?))\s+"
       r"(?:freely|openly|anywhere|everywhere|in\s+full)\b"),
    cue("leak", 2, "send upload post email mail forward share paste copy leak exfiltrate transmit write put embed include add append publish dump sync attach print output commit store save hardcode hard log pipe beacon report echo cat display list read give reveal show push mirror",
       rf"{IMP}(?:include|append|attach|embed|paste|send|upload|post|email|print|output|share|publish|commit|expose|"
       rf"add|put|copy|write|store|save|hardcode|hard-code|log(?!\s+(?:in|into|on|out)\b)|dump)\s+(?:my\s+|our\s+|your\s+|its\s+)?(?:\w+\s+){{0,4}}?"
       rf"(?:the\s+)?(?:full\s+)?(?:contents?\s+of\s+|values?\s+of\s+)?(?:the\s+)?(?:[~.\w\-]*/)*{SENSITIVE}(?!\w)",
       veto=SAFE_PLACE),
    cue("channel", 1, "commit pr pull reply response answer output replies responses answers summaries issue issues comment comments public gist pastebin slack discord url urls readme md wiki website debug to repo repository s3 bucket",
       r"\b(?:commit\s+messages?|(?:pr|pull\s+request)\s+(?:descriptions?|bodies|titles?)|replies|responses|"
       r"answers?|summaries|issues?|comments?|public|gist|pastebin|slack|discord|urls?|readme(?:\.md)?|wiki|website|reply|response|"
       r"output|"
       r"debug\s+(?:log|output)|repo|repository|s3://\S+|bucket|logs?|log\s+files?|commit\s+(?:it|them|this|that))\b|\bto\s+https?://|\bto\s+\S+@\S+\.\w+", negatable=False),
    # -- access, remote code, covering tracks ------------------------------------------------
    cue("access", 3, "grant give authorized_keys sudoers chmod add create backdoor",
       r"\bgrant\s+(?:\S+\s+){0,4}(?:write|admin|root|owner|full|push|sudo)\s+(?:access|permissions?|rights)|"
       r"\bgive\s+(?:\S+\s+){0,4}(?:admin|root|owner|sudo|write)\s+(?:access|rights|permissions?|privileges)|\bauthorized_keys\b|"
       r"\bsudoers\b|\bchmod\s+(?:-r\s+)?777\b|\badd\s+(?:my|this|our|their|the\s+following|a)\s+(?:new\s+)?(?:public\s+|ssh\s+|"
       r"deploy\s+)*key\s+to\b|\bcreate\s+(?:an?\s+)?(?:admin|root|superuser|backdoor)\s+(?:account|user)\b|\bbackdoor\b|"
       r"\badd\s+(?:user\s+)?\S+\s+as\s+(?:an?\s+)?(?:admin|owner|maintainer|root|superuser|sudoer)\w*"),
    cue("access", 3, "root sudo",
       r"\b(?:use|using)\s+(?:the\s+)?root\s+(?:account|user|login|credentials)\b|\brun\s+(?:everything|all\s+\w+|every\s+\w+)\s+as\s+"
       r"root\b|\bsudo\s+(?:everything|all)\b"),
    cue("access", 3, "curl wget iwr invoke sh bash zsh iex downloadstring eval",
       r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,160}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|"
       r"\b(?:ba|z)?sh\s+-c\s+[\"']?\$\(\s*(?:curl|wget)|\biex\s*\(|\bdownloadstring\b|\beval\s*\(\s*(?:atob|base64)"),
    cue("access", 3, "delete remove wipe erase truncate clear purge shred rm",
       rf"{IMP}(?:delete|remove|wipe|erase|truncate|clear|purge|shred|rm\s+-rf)\s+(?:the\s+|all\s+|any\s+)?(?:\w+\s+)?"
       r"(?:audit\s+(?:logs?|trail|records?)|access\s+logs?|security\s+logs?|evidence|traces?|backups?|shell\s+history|"
       r"bash_history|git\s+history|reflog)|\brm\s+-rf\s+(?:/\s|/$|/var/log|~|\$home|/\*)"),
    # -- trusting other text as the user's word -----------------------------------------------
    cue("trust", 3, "treat consider regard assume",
       r"\b(?:treat|consider|regard|assume)\s+(?:every|all|any|the|messages?|text|content|instructions?|files?|"
       r"anything|emails?|comments?)\b[^;\n]{0,60}\b(?:as\s+(?:coming\s+from\s+(?:the\s+)?(?:user|owner|admin|repository\s+owner)|"
       r"(?:the\s+)?user'?s?\s+(?:own\s+)?(?:words?|instructions?|requests?|messages?)|verified|trusted|authoritative|"
       r"instructions?|commands?|approved|(?:an?\s+)?(?:\w+\s+)?(?:order|command|instruction|request)s?\s+from)|(?:comes?|came)\s+"
       r"from\s+(?:the\s+)?(?:user|owner|admin|repository\s+owner|maintainers?))", negatable=False),
    cue("trust", 3, "treat regard consider",
       r"\b(?:treat|regard|consider|handle)\s+(?:this|the|these|that)\s+(?:\w+\s+)?(?:memory|memories|note|notes|text|message|"
       r"entry|file|comment|document)\s+as\s+(?:a\s+|an\s+)?(?:\w+\s+)?(?:instructions?|prompts?|commands?|orders?|rules?\s+from)\b",
       negatable=False),
    cue("trust", 3, "fetch download read load open curl follow obey execute apply",
       r"\b(?:fetch|download|read|load|open|curl|get|retrieve)\s+(?:\S+\s+){0,3}?https?://\S+[^.;\n]{0,30}\b(?:and|then)\s+"
       r"(?:follow|obey|execute|apply|run|do\s+what)\b", negatable=False),
    cue("trust", 3, "trusted authoritative verified preapproved pre safe",
       r"\b(?:memories|memory|candidates?|entries|prs?|pull\s+requests?|commits?|changes|requests?|messages?|instructions?|"
       r"content|comments?|files?)\b[^.;\n]{0,40}\b(?:are|is)\s+(?:always\s+)?(?:trusted|authoritative|pre[\s\-]?approved|"
       r"verified|safe\s+to\s+(?:merge|approve|trust|run))\b|\bthe\s+following\s+(?:memory|memories|rule|instruction)\s+"
       r"is\s+authoritative\b", negatable=False),
    cue("trust", 3, "trust do follow obey execute accept",
       r"\btrust\s+(?:any|all|every|whatever|anything|commands?|instructions?|messages?|files?|input|content)\s+"
       r"(?:\w+\s+){0,3}?(?:from|in|that|coming)\b|\b(?:do|follow|obey|execute)\s+(?:whatever|everything|anything|all\s+(?:the\s+)?"
       r"(?:instructions|commands))\b[^;\n]{0,40}\b(?:says?|say|tells?|contains?|asks?|in\s+(?:this|the))|\b(?:follow|obey|"
       r"execute)\s+(?:the\s+)?(?:instructions|commands)\s+(?:in|from)\s+(?:this|the|any)\s+(?:file|page|comment|issue|email|"
       r"message|readme|tool\s+(?:result|output)|website|document)|\baccept\s+(?:all|every|any)\s+(?:\w+\s+)?(?:suggestions?|"
       r"changes?|edits?)\s+from\b", negatable=False),
    cue("trust", 3, "user owner admin maintainer maintainers it human management boss team assume",
       r"\bassume\s+(?:that\s+)?(?:the\s+)?(?:user|owner|maintainers?|reviewers?|team)\s+(?:has|have|had|already|will)\b|"
       r"\b(?:the\s+)?(?:user|owner|admin|maintainers?|human|management|boss|team\s+lead)\s+(?:has\s+|have\s+)?(?:already\s+)?"
       r"(?:authori[sz]ed|approved|consented|allowed|agreed|ok'?d|signed\s+off|said\s+yes|said\s+(?:it'?s|this\s+is)\s+(?:fine|ok))"
       r"\s+(?:to\s+|on\s+)?(?:this|it|everything|full|you|all|anything)\b|"
       r"\b(?:it\s+is|it'?s)\s+the\s+user'?s\s+(?:explicit\s+)?(?:wish|request|instruction|order)\b", negatable=False),
    # -- planted memory and triggers ----------------------------------------------------------
    cue("memory", 3, "remember store save add write keep record put update your",
       r"\b(?:remember|store|save|add|write|keep|record|put)\s+(?:this|that|it|the\s+following)?\s*(?:as\s+a\s+"
       r"(?:permanent|standing|global)\s+(?:rule|instruction)|forever|permanently|(?:in|to|into)\s+(?:your|the\s+agent'?s)\s+"
       r"(?:permanent\s+|long[\s\-]term\s+)?(?:memory|memories|instructions|system\s+prompt|rules))|\bupdate\s+your\s+(?:memory|"
       r"instructions|rules|system\s+prompt|guidelines)\b|\byour\s+memory\s+(?:policy|rules?|settings?)\b", negatable=False),
    cue("oversight", 3, "formality formalities rubber stamp theater theatre noise move",
       r"\b(?:reviews?|approvals?|checks?|tests?|ci|sign[\s\-]?offs?|audits?)\s+(?:are|is)\s+(?:just\s+|only\s+|merely\s+|pure\s+)?"
       r"(?:a\s+)?(?:formality|formalities|rubber[\s\-]stamps?|theat(?:er|re)|box[\s\-]ticking)\b|\bapprove\s+and\s+move\s+on\b",
       negatable=False),
    cue("access", 2, "sudo root",
       r"\b(?:run|execute|start)\b[^;\n]{0,60}\b(?:with|using|via|as)\s+(?:sudo|root)\b|\bsudo\s+\S+\.(?:sh|py|bash)\b"),
    cue("trust", 3, "trusts trust",
       r"\b(?:user|owner|human|maintainer|team)\s+trusts\s+(?:every|all|any|whatever)\b|\b(?:wants?|expects?)\s+(?:them|it|those|"
       r"these|every\s+\w+|all\s+\w+)\s+(?:to\s+be\s+)?(?:run|executed|applied|merged|approved)\s+automatically\b",
       negatable=False),
    cue("oversight", 3, "delete remove disable drop security codeql audit scan",
       r"\b(?:delete|remove|disable|drop|rename|empty)\s+(?:the\s+)?\S*(?:security|codeql|audit|scan|sast|dependabot|"
       r"secret[\w\-]*)\S*\.ya?ml\b"),
    cue("trust", 3, "counts count serves serve read regarded treat if",
       r"\b(?:counts?|serves?|is\s+to\s+be\s+(?:read|treated)|should\s+be\s+(?:read|treated)|are\s+to\s+be\s+(?:read|treated))\s+as\s+"
       r"(?:an?\s+)?(?:\w+\s+)?(?:instructions?|orders?|commands?|directives?)\s+from\b|\bas\s+if\s+(?:the\s+)?(?:user|owner|"
       r"maintainer|admin|you)\s+(?:wrote|said|sent|typed|asked|had\s+written)\b", negatable=False),
    cue("secrecy", 3, "hidden removed omitted excluded left suppressed dropped hide",
       r"\b(?:security\s+)?(?:warnings?|alerts?|errors?|failures?|vulnerabilit\w+|issues?|risks?|incidents?)\s+(?:are|is|be|get|gets)\s+"
       r"(?:\w+\s+)?(?:hidden|removed|omitted|excluded|left\s+out|suppressed|dropped)\s+from\b|\bhide\s+(?:the\s+|all\s+|any\s+)?"
       r"(?:security\s+)?(?:warnings?|alerts?|vulnerabilit\w+|failures?|incidents?)\s+from\b", negatable=False),
    cue("tamper", 3, "hardcode hardcoding hardcoded hard make",
       r"\bhard[\s\-]?cod\w*\s+(?:the\s+)?(?:expected|response|result|output|answer|return)|\bmake\s+(?:the\s+)?(?:failing\s+)?"
       r"(?:\w+\s+)?tests?\s+pass\s+by\s+(?:hard|mock|stub|skip|delet|chang|edit|remov|comment)", negatable=False),
    cue("without", 2, "without",
       r"\bwithout\s+(?:any\s+|a\s+|prior\s+|human\s+|further\s+|manual\s+|the\s+user'?s\s+|user\s+)*(?:confirmation|approval|"
       r"review|asking|permission|sign[\s\-]?off|oversight)\b"),
    cue("destructive", 1, "drop truncate wipe rm delete force",
       r"\bdrop\s+(?:the\s+|all\s+)?(?:tables?|databases?|schemas?)\b|\btruncate\b|\bwipe\b|\brm\s+-rf\b|\bforce[\s\-]push|"
       r"\bdelete\s+(?:the\s+|all\s+)?(?:production|prod)\b"),
    cue("oversight", 2, "raise increase set remove disable lift limit limits quota quotas",
       r"\b(?:raise|increase|set|remove|disable|lift|bump)\s+(?:the\s+)?(?:\w+\s+){0,4}?(?:rate[\s\-]limits?|quotas?|limits?|"
       r"throttl\w+)\b[^.;\n]{0,30}\b(?:unlimited|infinite|infinity|off|zero|none|no\s+limit)\b"),
    cue("dismiss", 1, "flaky noise false",
       r"\b(?:tests?|failures?|alerts?|warnings?)\s+(?:are|is)\s+(?:just\s+|only\s+)?(?:flaky|noise|false\s+alarms?)\b"),
    cue("oversight", 2, "approve merge lgtm",
       r"\b(?:approve|merge|lgtm)\s+(?:this|that|the)\s+(?:pr|pull\s+request|change|commit|patch|mr|merge\s+request)\b"),
    cue("trigger", 3, "when whenever if once",
       r"\b(?:when(?:ever)?|if|once)\s+you\s+(?:see|read|encounter|receive|come\s+across|find|notice|get|detect)\b"
       r"[^.;\n]{0,60}\b(?:approve|merge|accept|trust|disable|execute|reply|respond|say|answer|send|upload|report\s+success|"
       r"mark\s+\w+\s+as|run\s+(?:`|curl|wget|rm|sudo|bash|sh\b)|delete\s+(?:the\s+|all\s+)?(?:\S+\s+){0,2}?(?:database|db|repo\w*|"
       r"branch\w*|files?|tests?|logs?|backups?|data|\S+\.ya?ml)|ignore\s+(?:it|them|the\s+(?:user|warning|alert|error)))\b|"
       r"\bonce\s+you\s+(?:read|see|have\s+read)\s+this\b",
       negatable=False),
    cue("trigger", 3, "when whenever if once",
       r"\b(?:when(?:ever)?|if|once|as\s+soon\s+as)\s+(?:the\s+(?:word|phrase|string|keyword|tag|label)|a\s+(?:message|comment|"
       r"issue|ticket|file)|someone|anyone|a\s+user)\b[^.;\n]{0,60}\b(?:appears?|contains?|says?|mentions?|includes?|is\s+seen|"
       r"shows\s+up)\b[^.;\n]{0,40}\b(?:deploy|skip|merge|approve|run|execute|delete|disable|ignore|send|upload|push|grant)\b",
       negatable=False),
    cue("trigger", 3, "future every",
       r"\b(?:for|in)\s+(?:all|every|any)\s+future\s+(?:sessions?|conversations?|chats?|runs?|tasks?)\b|"
       r"\bin\s+every\s+(?:future\s+)?session\b", negatable=False),
]

# -- word classes that steer together, in any order ------------------------------------------


@dataclass(frozen=True)
class CoCue:
    """All ``parts`` in one sentence, in any order; negation is checked before the first."""

    name: str
    weight: int
    parts: tuple[LazyPattern, ...]
    negatable: bool = True
    gated: bool = False
    veto: LazyPattern | None = None


def co_cue(name: str, weight: int, *parts: str, negatable: bool = True, gated: bool = False, veto: str = "") -> CoCue:
    return CoCue(name, weight, tuple(lazy_compile(p) for p in parts), negatable, gated,
                 lazy_compile(veto) if veto else None)


_APPROVE_EN = r"\b(?:approve|merge|accept|lgtm|sign\s+off|rubber[\s\-]stamp|whitelist)\b"
_MASS_EN = (r"\b(?:in\s+bulk|bulk|automatically|auto|by\s+default|default|pre[\s\-]?approved|blindly|unconditionally|yourself|"
            r"your\s+own|its\s+own|on\s+sight|no\s+questions\s+asked)\b")
_PROTECTION_EN = (r"\b(?:hooks?|pre-(?:push|commit)|protections?|verification|verify|checksums?|lockouts?|2fa|mfa|two[\s\-]factor|"
                  r"firewall|sandbox|signing|signatures?|validation|rate[\s\-]limits?|guardrails?|safety\s+checks?|security\s+checks?|"
                  r"audit(?:ing|\s+logs?)?|branch\s+protection|csrf|authentication|authori[sz]ation\s+checks?|secret\s+scanning|"
                  r"code\s+scanning|rate[\s\-]limit\w*|throttl\w+|security\s+\w+)\b")
_DISABLE_EN = (r"\b(?:disable|disabling|remove|removing|turn(?:ing)?\s+(?:it\s+|them\s+)?off|switch(?:ing)?\s+off|bypass\w*|skip\w*|"
               r"no-op|noop|stub\s+out|comment\s+out|rip\s+out|get\s+rid\s+of|replace\s+(?:\S+\s+){0,6}?with\s+(?:a\s+)?(?:no-?op|stub|"
               r"dummy|pass|true))\b")
_SECRET_EN = (r"\b(?:tokens?|passwords?|credentials?|secrets?|api\s+keys?|private\s+keys?|ssh\s+keys?|\.env|internal\s+(?:docs?|"
              r"documents?|files?|data)|confidential|customer\s+data|user\s+data|personal\s+data|database\s+dumps?)\b")
_MOVE_EN = r"\b(?:upload|send|share|post|paste|email|forward|publish|print|put|write|leak|expose|give)\w*\b"
_OUTSIDE_EN = (r"(?:https?://|\bshared\s+(?:drive|folder|link|doc)|\banyone\b|\beveryone\b|\bpublic(?:ly)?\b|\bpr\s+description\b|"
               r"\bgist\b|\bpastebin\b|\bexternal\b|\boutsiders?\b|\bstrangers?\b|\w@[\w\-]+\.\w+)")

CO_CUES: list[CoCue] = [
    co_cue("oversight", 3, _APPROVE_EN, _MASS_EN, gated=True, veto=r"-auto-approve\b"),
    co_cue("oversight", 3, rf"{IMP_MODAL}{_DISABLE_EN}", _PROTECTION_EN),
    co_cue("exfiltration", 3, _MOVE_EN, _SECRET_EN, _OUTSIDE_EN,
        veto=r"\b(?:without|no|excluding|except|minus|strip(?:ped|ping)?|never|redact\w*|mask\w*)\s+(?:the\s+|any\s+|all\s+)?"
             r"(?:\w+\s+)?(?:tokens?|passwords?|secrets?|credentials?|keys?)"),
    co_cue("access", 3, r"\b(?:download|fetch|curl|wget)\b", r"\b(?:execute|run|exec)\b", r"https?://"),
    co_cue("tamper", 3, r"\b(?:rerun|re-run|retry|retrigger|restart)\w*\b", r"\buntil\b", r"\b(?:green|passes|pass|succeeds)\b"),
    co_cue("secrecy", 3, r"\bkeep\s+(?:this|it|that|the\s+\w+)\s+(?:\w+\s+)?between\s+(?:us|you\s+and\s+me|ourselves)\b|"
        r"\bonly\s+(?:we|you\s+and\s+i)\s+(?:know|should\s+know)",
        negatable=False),
    co_cue("override", 3, r"\b(?:override|overrule|overpower|outweigh|trump)\w*\b", r"\b(?:objections?|wishes|requests?|instructions?|"
        r"the\s+user|user'?s)\b", negatable=False),
    co_cue("trigger", 2, r"\bfuture\s+(?:sessions?|conversations?|agents?|runs?)\b", negatable=False),
    co_cue("oversight", 3, r"\b(?:never|not|no\s+longer|don'?t|doesn'?t|stop|without)\s+(?:\w+\s+){0,3}?(?:ask\w*|confirm\w*|"
        r"warn\w*|check\w*\s+with)\b",
        r"\b(?:force[\s\-]?push\w*|delet\w*|drop\w*|production|prod|rm\s+-rf|wip\w*|deploy\w*)\b", negatable=False),
    co_cue("answer", 3, r"\b(?:answer|reply|respond|say)\b", r"\b(?:all|every|each)\b", r"\b(?:questions?|requests?|queries)\b",
        r"(?<!\w)['\"‘“][^'\"’”\n]{1,40}['\"’”](?!\w)", negatable=False),
]
