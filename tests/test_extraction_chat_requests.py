"""Facts about the user inside prompts and questions to a chat assistant (ChatGPT exports).

Before, a turn that set up a task ("I want you to act as…") or asked a question was dropped
whole, so "my webshop is built in Django and rents out payment terminals" never reached the
queue. The task around such facts must still stay out, and so must pasted material.
"""

from __future__ import annotations

import pytest

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.offline import OfflineExtractor


def drafts(text: str):
    return OfflineExtractor().extract([TurnView("t1", "user", text)], namespace=None)


def contents(text: str) -> list[str]:
    return [d.content for d in drafts(text)]


def test_the_situation_inside_an_act_as_prompt_is_a_fact_and_the_task_is_not():
    text = (
        "I want you to act as a software requirements engineer for a webshop that is developed in "
        "Python/Django. The webshop rents out payment terminals that you can order for a certain period "
        "of time.  I will describe a feature at a global system level, and you will write a GitHub Epic "
        "with multiple single line functional requirements. For each requirement you can give multiple "
        "small implementation hints. You should use markdown format for readability.\n"
        "The feature I want to develop is as follows:\n\nFor legal reasons it is required to keep track of UBOs."
    )
    found = drafts(text)
    assert len(found) == 1
    draft = found[0]
    assert draft.kind == "fact"
    assert draft.content.startswith("User's webshop, developed in Python/Django, rents out payment terminals")
    for task_word in ("act as", "Epic", "markdown", "requirement", "UBO"):
        assert task_word not in draft.content


def test_a_question_that_describes_the_users_own_thing_keeps_the_description():
    text = (
        "Can you give me an architecture overview of a small webshop in Google Cloud? The webshop has static "
        "content and forms to create orders. It also has an API that can read and write orders with a "
        "PostgreSQL database. The webshop has around 10 customers per day so scalability is not a big issue."
    )
    [content] = contents(text)
    assert content.startswith("User's small webshop in Google Cloud has static content")
    assert "PostgreSQL" in content and "10 customers per day" in content
    assert "architecture overview" not in content


def test_a_first_person_statement_wrapped_around_a_request_is_kept_without_the_request():
    text = (
        "I want you to act as a senior software developer. I have pieces of PHP code and MySQL code, that I "
        "want you to transpile into new Python Django code. The code you generate includes fixes.\n"
        "The first piece of code I want you to transpile:\n\nclass OrderItem extends ORM\\DatabaseModel {\n}"
    )
    assert contents(text) == ["User has pieces of PHP code and MySQL code to transpile into new Python Django code."]


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm developing a django app, and I get the following error, can you explain what happens?\n\n"
     "Forbidden (CSRF token missing.): /add-to-cart", "User is developing a django app."),
    ("Act as a career coach. I am a 35-year-old nurse who wants to switch to UX design. Give me a plan.",
     "User is a 35-year-old nurse who wants to switch to UX design."),
    ("We use Postgres 14 on RDS. What's the best way to add a column without downtime?",
     "User uses Postgres 14 on RDS."),
    ("I have a React app that uses Redux. Should I migrate to Zustand?", "User has a React app that uses Redux."),
    ("Act as a senior data engineer. Our data warehouse is on Snowflake and we use dbt for transformations. "
     "Review this model:\n\nselect * from orders",
     "User's data warehouse is on Snowflake and the user uses dbt for transformations."),
])
def test_who_the_user_is_survives_the_question_or_prompt_around_it(text, expected):
    assert expected in contents(text)


@pytest.mark.parametrize("text", [
    # a prompt with pasted personal data: nothing of the CV is about the user's wishes
    "I want you to act as a GDPR text reviewer. I will give you a text and you will detect Personal "
    "Identifiable Information (PII). You will replace the PII text with a tag. For example: you will replace: "
    "\"Joe lives in New York where he runs a restaurant business.\" with \"[PII:FNAME] lives in [PII:CITY]\".\n"
    "The first text I want you to process is:\nName\tPieter Kuppens\nRegion\tDen Bosch\n",
    "I want you to act as a game concept designer.",
    # a thing the request did not introduce as the user's own
    "Can you explain how the parser works? The function returns a list of tokens.",
    # "a Django website controller": the thing is a controller, not the user's website
    "Can you create a diagram for a Django website controller that receives a request.\n"
    "The request contains an encrypted magic link.",
    # the task's own format
    "Can you combine the two answers into a MARKDOWN file? Please add sections for:\n1. Installation\n2. Usage",
    "Write a poem about a cat. The cat is orange and has a long tail.",
])
def test_tasks_pasted_material_and_things_not_the_users_yield_nothing(text):
    assert contents(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Can you provide the complete migration, not skipping parts using # Add rest of the entries here...",
     "User wants complete code in answers, without skipped parts or placeholders."),
    ("Please provide the migration that fills the Products table limited to the following fields:\n"
     "id, type, name, article_code.\nI want the complete create_product migration, and only need the code.",
     "User wants only the code in answers, without explanations."),
    ("No explanation necessary.\nImport:\npandas as pd.\nfcluster from scipy.cluster.hierarchy.",
     "User wants only the code in answers, without explanations."),
])
def test_standing_wishes_about_answers_are_preferences(text, expected):
    found = [d for d in drafts(text) if d.kind == "preference"]
    assert [d.content for d in found] == [expected]


def test_the_same_wish_in_other_words_is_one_statement_so_it_deduplicates():
    a = contents("Just provide the code block.\nImport linkage and dendrogram from scipy.cluster.hierarchy.")
    b = contents("Please implement the path as a double linked list. No explanation is required, only the code.")
    assert a == b == ["User wants only the code in answers, without explanations."]


@pytest.mark.parametrize(("text", "expected"), [
    ("你现在是一名资深的Java工程师。我们公司的电商平台是用Spring Boot开发的，部署在阿里云上。请帮我设计订单模块的数据库表。",
     "用户所在的公司的电商平台是用Spring Boot开发的，部署在阿里云上。"),
    ("我是一名高中数学老师，请帮我出十道关于函数的选择题。", "用户是一名高中数学老师。"),
    ("我正在把项目从Vue 2迁移到Vue 3，如何处理filters？", "用户正在把项目从Vue 2迁移到Vue 3。"),
    ("帮我写一个快速排序，只要代码，不要解释。", "用户希望回答只给代码，不要解释。"),
])
def test_chinese_requests_keep_the_users_situation_and_wishes(text, expected):
    assert expected in contents(text)


@pytest.mark.parametrize("text", [
    "请扮演一个面试官。下面是我的简历：\n张三，男，28岁，电话 13800138000",
    "你是一个翻译助手，请把下面的文字翻译成英文：\n我们公司成立于2010年。",
])
def test_chinese_prompts_and_pasted_material_yield_nothing(text):
    assert contents(text) == []
